//! A future that is pending once, so a single-threaded executor runs its other tasks before going on: how
//! the concurrency tests interleave tasks (adds, lock holders) without timers.

use std::future::poll_fn;
use std::task::Poll;

/// Pending once (waking itself), then ready.
pub async fn yield_once() {
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
