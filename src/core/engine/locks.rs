//! Per-key async locks for one engine (or its peers): `addMessage` reads a group's buffer, may wait for the LLM,
//! then writes the buffer back; a second call for the same group waits until the first one has written, so no
//! message is lost between them. Calls for other groups run freely. Single-threaded (wasm, `Rc` engines).
//! A waiting task is woken by the holder or, where tasks must not wake one another (`Pausing`), tries again
//! after each pause of its own, and takes over a key held so long that its holder must be gone.

use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::future::{poll_fn, Future};
use std::pin::Pin;
use std::rc::Rc;
use std::task::{Poll, Waker};

/// A wait of the caller's own (a timer it sets), after which a task waiting for a held key tries again.
pub type Pause = Rc<dyn Fn() -> Pin<Box<dyn Future<Output = ()>>>>;

/// How tasks that must not wake one another wait (the requests of a Worker isolate): each `pause`s and tries
/// again. A key one holder kept for `patience` pauses of a waiter is taken over: a holder whose request was
/// cancelled never runs again to let it go, and no waiter may wait for good.
#[derive(Clone)]
pub struct Pausing {
    pub pause: Pause,
    pub patience: u32,
}

/// The keys held now (each with its holder's number) and the tasks waiting for one.
#[derive(Default)]
pub(crate) struct Locks {
    held: RefCell<HashMap<String, u64>>,
    holders: Cell<u64>,
    waiting: RefCell<Vec<Waker>>,
    /// Waiting tasks pause and try again instead of being woken.
    pausing: Option<Pausing>,
}

/// Holds a key until dropped; dropping it wakes the waiting tasks.
pub(crate) struct Guard<'a> {
    locks: &'a Locks,
    key: String,
    holder: u64,
}

impl Drop for Guard<'_> {
    fn drop(&mut self) {
        let mut held = self.locks.held.borrow_mut();
        if held.get(&self.key) == Some(&self.holder) {
            held.remove(&self.key);
        }
        drop(held);
        let waiting = std::mem::take(&mut *self.locks.waiting.borrow_mut());
        waiting.into_iter().for_each(Waker::wake);
    }
}

impl Locks {
    /// Locks whose waiting tasks pause and try again, never woken by another task.
    pub(crate) fn pausing(pausing: Pausing) -> Self {
        Self { pausing: Some(pausing), ..Self::default() }
    }

    /// Holds `key` for a new holder, whoever held it.
    fn hold(&self, key: &str) -> Guard<'_> {
        let holder = self.holders.replace(self.holders.get() + 1);
        self.held.borrow_mut().insert(key.to_owned(), holder);
        Guard { locks: self, key: key.to_owned(), holder }
    }

    /// Waits until `key` is free, then holds it.
    pub(crate) async fn lock(&self, key: &str) -> Guard<'_> {
        if let Some(Pausing { pause, patience }) = &self.pausing {
            let mut waited: Option<(u64, u32)> = None;
            loop {
                let Some(holder) = self.held.borrow().get(key).copied() else { break };
                let pauses = waited.filter(|(seen, _)| *seen == holder).map_or(1, |(_, pauses)| pauses + 1);
                if pauses > *patience {
                    break;
                }
                waited = Some((holder, pauses));
                pause().await;
            }
            return self.hold(key);
        }
        poll_fn(|cx| {
            if !self.held.borrow().contains_key(key) {
                return Poll::Ready(());
            }
            self.waiting.borrow_mut().push(cx.waker().clone());
            Poll::Pending
        })
        .await;
        self.hold(key)
    }
}

#[cfg(test)]
mod tests {
    use std::cell::RefCell;
    use std::rc::Rc;

    use futures_executor::LocalPool;
    use futures_util::task::LocalSpawnExt;

    use super::*;
    use crate::core::testing::yield_once;

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

    /// Locks that pause by yielding once, counting the pauses in `pauses`.
    fn pausing(patience: u32, pauses: &Rc<std::cell::Cell<u32>>) -> Rc<Locks> {
        let counted = pauses.clone();
        let pause: Pause = Rc::new(move || {
            counted.set(counted.get() + 1);
            Box::pin(yield_once())
        });
        Rc::new(Locks::pausing(Pausing { pause, patience }))
    }

    #[test]
    fn with_a_pause_a_waiting_task_tries_again_after_each_pause_and_is_never_woken_by_the_holder() {
        let pauses = Rc::new(std::cell::Cell::new(0));
        let locks = pausing(1_000, &pauses);
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

    #[test]
    fn with_a_pause_a_key_held_past_the_patience_is_taken_over_and_the_gone_holder_cannot_free_it() {
        let pauses = Rc::new(std::cell::Cell::new(0));
        let locks = pausing(50, &pauses);
        let gone = locks.hold("a");
        let log = Rc::new(RefCell::new(Vec::new()));
        let mut pool = LocalPool::new();
        let (waiter, entered) = (locks.clone(), log.clone());
        pool.spawner()
            .spawn_local(async move {
                let _guard = waiter.lock("a").await;
                entered.borrow_mut().push("in");
                std::future::pending::<()>().await;
            })
            .unwrap();
        pool.run_until_stalled();
        assert_eq!(*log.borrow(), ["in"], "the waiter went in after its patience ran out");
        assert_eq!(pauses.get(), 50);
        drop(gone);
        assert!(
            locks.held.borrow().contains_key("a"),
            "the holder that was taken over does not free the new one's key"
        );
    }
}
