//! The circuit breaker: hosts found down, remembered per origin for every model client of the thread (wasm
//! has one, so every `Memory` of a process, page or isolate shares it). For a cool-down after a host was
//! found down, calls to it fail at once with `CircuitOpen` and send nothing; then one call tries again
//! (half-open) while the others still fail at once. Any answer from the host closes the breaker; none opens
//! it again, from the outage's first failure. Times come from the client's clock (`Now`), so tests move it.

use rustc_hash::FxHashMap;
use std::cell::RefCell;
use std::rc::Rc;

use super::HttpError;

/// The clock the breaker reads: milliseconds since the Unix epoch.
pub type Now = Rc<dyn Fn() -> i64>;

/// What one attempt learnt about its host.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Host {
    /// The request or a liveness probe got an HTTP answer: the host is up.
    Up,
    /// Neither got any answer: the host is down.
    Down,
    /// Nothing either way (the probe is turned off).
    Unknown,
}

/// An origin found down: since when, when last, and whether a call is trying it again now.
#[derive(Debug, Clone, Copy)]
struct Outage {
    since_ms: i64,
    last_ms: i64,
    trying: bool,
}

thread_local! {
    static OUTAGES: RefCell<FxHashMap<String, Outage>> = RefCell::default();
}

/// One model's view of the shared outages: its cool-down (0: it neither reads nor records them) and clock.
#[derive(Clone)]
pub struct Breaker {
    cool_down_ms: u32,
    now: Now,
}

impl std::fmt::Debug for Breaker {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Breaker {{ cool_down_ms: {} }}", self.cool_down_ms)
    }
}

impl Breaker {
    pub fn new(cool_down_ms: u32, now: Now) -> Self {
        Self { cool_down_ms, now }
    }

    /// Lets a call to `origin` go (settle the pass with what it learnt), or fails it at once while `origin`
    /// cools down or another call is trying it again.
    pub(super) fn enter<'a>(&'a self, origin: &'a str) -> Result<Pass<'a>, HttpError> {
        let free = Pass { breaker: self, origin, trial: false };
        if self.cool_down_ms == 0 {
            return Ok(free);
        }
        let now = (self.now)();
        OUTAGES.with_borrow_mut(|outages| {
            let Some(outage) = outages.get_mut(origin) else { return Ok(free) };
            let retry_at_ms = outage.last_ms.saturating_add(i64::from(self.cool_down_ms));
            if outage.trying || now < retry_at_ms {
                let retry_at_ms = (!outage.trying).then_some(retry_at_ms);
                return Err(HttpError::CircuitOpen {
                    origin: origin.to_owned(),
                    since_ms: outage.since_ms,
                    retry_at_ms,
                });
            }
            outage.trying = true;
            Ok(Pass { trial: true, ..free })
        })
    }
}

/// A call let through; settling it records what it learnt. Dropped unsettled (its call was dropped), a
/// trial lets the next call try instead.
pub(super) struct Pass<'a> {
    breaker: &'a Breaker,
    origin: &'a str,
    trial: bool,
}

impl Pass<'_> {
    /// Closes the breaker when the host answered, opens it (again) when it did not.
    pub fn settle(mut self, host: Host) {
        if self.breaker.cool_down_ms == 0 {
            return;
        }
        let now = (self.breaker.now)();
        OUTAGES.with_borrow_mut(|outages| match host {
            Host::Up => {
                outages.remove(self.origin);
            }
            Host::Down => {
                let since_ms = outages.get(self.origin).map_or(now, |outage| outage.since_ms);
                outages.insert(self.origin.to_owned(), Outage { since_ms, last_ms: now, trying: false });
            }
            Host::Unknown => {}
        });
        self.release();
    }

    /// Ends a trial without a verdict: the next call may try.
    fn release(&mut self) {
        if std::mem::take(&mut self.trial) {
            OUTAGES.with_borrow_mut(|outages| {
                if let Some(outage) = outages.get_mut(self.origin) {
                    outage.trying = false;
                }
            });
        }
    }
}

impl Drop for Pass<'_> {
    fn drop(&mut self) {
        self.release();
    }
}
