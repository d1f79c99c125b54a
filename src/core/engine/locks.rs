//! Per-key async locks for one engine (or its peers): `addMessage` reads a group's buffer, may wait for the LLM,
//! then writes the buffer back; a second call for the same group waits until the first one has written, so no
//! message is lost between them. Calls for other groups run freely. Single-threaded (wasm, `Rc` engines).
//! A waiting task is woken by the holder, or, where tasks must not wake one another (`Pause`), tries again
//! after each pause.

use std::cell::RefCell;
use std::collections::HashSet;
use std::future::{poll_fn, Future};
use std::pin::Pin;
use std::rc::Rc;
use std::task::{Poll, Waker};

/// A wait of the caller's own (a timer it sets), after which a task waiting for a held key tries again.
pub type Pause = Rc<dyn Fn() -> Pin<Box<dyn Future<Output = ()>>>>;

/// The keys held now and the tasks waiting for one.
#[derive(Default)]
pub(crate) struct Locks {
    held: RefCell<HashSet<String>>,
    waiting: RefCell<Vec<Waker>>,
    /// Waiting tasks pause and try again instead of being woken (see `Pause`).
    pause: Option<Pause>,
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
    /// Locks whose waiting tasks `pause` and try again, never woken by another task.
    pub(crate) fn pausing(pause: Pause) -> Self {
        Self { pause: Some(pause), ..Self::default() }
    }

    /// Waits until `key` is free, then holds it.
    pub(crate) async fn lock(&self, key: &str) -> Guard<'_> {
        if let Some(pause) = &self.pause {
            while !self.held.borrow_mut().insert(key.to_owned()) {
                pause().await;
            }
            return Guard { locks: self, key: key.to_owned() };
        }
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

    #[test]
    fn with_a_pause_a_waiting_task_tries_again_after_each_pause_and_is_never_woken_by_the_holder() {
        let pauses = Rc::new(std::cell::Cell::new(0));
        let counted = pauses.clone();
        let locks = Rc::new(Locks::pausing(Rc::new(move || {
            counted.set(counted.get() + 1);
            Box::pin(yield_once())
        })));
        let log = Rc::new(RefCell::new(Vec::new()));
        let mut pool = LocalPool::new();
        for task in ["a1", "a2"] {
            let (locks, log) = (locks.clone(), log.clone());
            pool.spawner()
                .spawn_local(async move {
                    let _guard = locks.lock("a").await;
                    log.borrow_mut().push(format!("{task} in"));
                    for _ in 0..3 {
                        yield_once().await;
                    }
                    log.borrow_mut().push(format!("{task} out"));
                })
                .unwrap();
        }
        pool.run();
        assert_eq!(*log.borrow(), ["a1 in", "a1 out", "a2 in", "a2 out"]);
        assert!(pauses.get() >= 3, "a2 paused while a1 held the key: {}", pauses.get());
        assert!(locks.waiting.borrow().is_empty(), "no waker was left to wake");
    }
}
