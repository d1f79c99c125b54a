//! Per-key async locks for one engine: `addMessage` reads a group's buffer, may wait for the LLM, then writes
//! the buffer back; a second call for the same group waits until the first one has written, so no message is
//! lost between them. Calls for other groups run freely. Single-threaded (wasm, `Rc` engines).

use std::cell::RefCell;
use std::collections::HashSet;
use std::future::poll_fn;
use std::task::{Poll, Waker};

/// The keys held now and the tasks waiting for one.
#[derive(Default)]
pub(crate) struct Locks {
    held: RefCell<HashSet<String>>,
    waiting: RefCell<Vec<Waker>>,
}

/// Holds a key until dropped; dropping it wakes the waiting tasks.
pub(crate) struct Guard<'a> {
    locks: &'a Locks,
    key: String,
}

impl Drop for Guard<'_> {
    fn drop(&mut self) {
        self.locks.held.borrow_mut().remove(&self.key);
        let waiting = std::mem::take(&mut *self.locks.waiting.borrow_mut());
        waiting.into_iter().for_each(Waker::wake);
    }
}

impl Locks {
    /// Waits until `key` is free, then holds it.
    pub(crate) async fn lock(&self, key: &str) -> Guard<'_> {
        poll_fn(|cx| {
            if self.held.borrow_mut().insert(key.to_owned()) {
                return Poll::Ready(());
            }
            self.waiting.borrow_mut().push(cx.waker().clone());
            Poll::Pending
        })
        .await;
        Guard { locks: self, key: key.to_owned() }
    }
}

#[cfg(test)]
mod tests {
    use std::cell::RefCell;
    use std::rc::Rc;

    use futures_executor::LocalPool;
    use futures_util::task::LocalSpawnExt;

    use super::*;

    /// A future that is pending once, so the executor switches tasks.
    async fn yield_once() {
        let mut yielded = false;
        poll_fn(|cx| {
            if yielded {
                return Poll::Ready(());
            }
            yielded = true;
            cx.waker().wake_by_ref();
            Poll::Pending
        })
        .await;
    }

    #[test]
    fn a_second_holder_of_the_same_key_waits_and_other_keys_do_not() {
        let locks = Rc::new(Locks::default());
        let log = Rc::new(RefCell::new(Vec::new()));
        let mut pool = LocalPool::new();
        for (task, key) in [("a1", "a"), ("a2", "a"), ("b1", "b")] {
            let (locks, log) = (locks.clone(), log.clone());
            pool.spawner()
                .spawn_local(async move {
                    let _guard = locks.lock(key).await;
                    log.borrow_mut().push(format!("{task} in"));
                    yield_once().await;
                    log.borrow_mut().push(format!("{task} out"));
                })
                .unwrap();
        }
        pool.run();
        let log = log.borrow();
        let at = |entry: &str| log.iter().position(|e| e == entry).unwrap();
        assert!(at("a1 out") < at("a2 in"), "{log:?}");
        assert!(at("b1 in") < at("a1 out"), "another key does not wait: {log:?}");
    }
}
