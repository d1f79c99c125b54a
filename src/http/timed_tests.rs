//! `Timed` over a scripted client, with the retry budget above it: the default timeout, a dead host found by
//! one probe and not retried, a slow host waited for, and the breaker on a clock the test moves. Each test
//! uses its own origins (the breaker's outages are shared by every client of a thread).

use std::cell::{Cell, RefCell};
use std::future::{pending, poll_fn};
use std::rc::Rc;
use std::task::{Poll, Waker};

use super::*;
use crate::http::breaker::Host;
use crate::http::{send_with_retry, RetryPolicy};

/// How a scripted request ends: at once, once a probe has answered (a slow host), or never (a dead one).
#[derive(Clone)]
enum Reply {
    Now(Result<HttpResponse, HttpError>),
    AfterProbe(u16),
    Never,
}

/// How the scripted host answers probes.
#[derive(Clone, Copy)]
enum Probe {
    Answers,
    Refuses,
    Silent,
}

/// Counts the requests dropped unfinished (what `FetchClient` aborts).
struct Abort<'a>(&'a Cell<u32>);

impl Drop for Abort<'_> {
    fn drop(&mut self) {
        self.0.set(self.0.get() + 1);
    }
}

struct Scripted {
    replies: RefCell<Vec<Reply>>,
    probe: Cell<Probe>,
    posts: Cell<u32>,
    probes: Cell<u32>,
    aborted: Cell<u32>,
    sleeps: RefCell<Vec<u32>>,
    timeouts: RefCell<Vec<Option<u32>>>,
    probed: Cell<bool>,
    waiting: RefCell<Option<Waker>>,
}

impl Scripted {
    fn new(mut replies: Vec<Reply>, probe: Probe) -> Self {
        replies.reverse();
        Self {
            replies: RefCell::new(replies),
            probe: Cell::new(probe),
            posts: Cell::default(),
            probes: Cell::default(),
            aborted: Cell::default(),
            sleeps: RefCell::default(),
            timeouts: RefCell::default(),
            probed: Cell::default(),
            waiting: RefCell::default(),
        }
    }
}

fn ok(status: u16) -> HttpResponse {
    HttpResponse { status, retry_after: None, body: "{}".into() }
}

impl HttpClient for &Scripted {
    async fn post(&self, request: &HttpRequest) -> Result<HttpResponse, HttpError> {
        self.posts.set(self.posts.get() + 1);
        self.timeouts.borrow_mut().push(request.timeout_ms);
        let reply = self.replies.borrow_mut().pop().expect("more requests than scripted");
        match reply {
            Reply::Now(result) => result,
            Reply::AfterProbe(status) => {
                poll_fn(|cx| {
                    if self.probed.get() {
                        return Poll::Ready(());
                    }
                    *self.waiting.borrow_mut() = Some(cx.waker().clone());
                    Poll::Pending
                })
                .await;
                Ok(ok(status))
            }
            Reply::Never => {
                let _abort = Abort(&self.aborted);
                pending().await
            }
        }
    }

    async fn sleep(&self, ms: u32) {
        self.sleeps.borrow_mut().push(ms);
    }

    async fn probe(&self, _: &str) -> bool {
        self.probes.set(self.probes.get() + 1);
        match self.probe.get() {
            Probe::Answers => {
                self.probed.set(true);
                if let Some(waiting) = self.waiting.borrow_mut().take() {
                    waiting.wake();
                }
                true
            }
            Probe::Refuses => false,
            Probe::Silent => pending().await,
        }
    }
}

const POLICY: RetryPolicy = RetryPolicy { max_retries: 3, base_delay_ms: 10, max_delay_ms: 100 };
const WATCH: HostWatch = HostWatch { connect_timeout_ms: 100, cool_down_ms: 1_000 };

/// A clock at `t`, and the `Now` that reads it.
fn clock(t: i64) -> (Rc<Cell<i64>>, crate::http::Now) {
    let time = Rc::new(Cell::new(t));
    let now = time.clone();
    (time, Rc::new(move || now.get()))
}

fn timed(client: &Scripted, timeout_ms: Option<u32>, watch: HostWatch, now: crate::http::Now) -> Timed<&Scripted> {
    Timed::new(client, timeout_ms, watch, now)
}

fn call(timed: &Timed<&Scripted>, url: &str) -> Result<HttpResponse, HttpError> {
    let request = HttpRequest { url: url.into(), headers: vec![], body: "{}".into(), timeout_ms: None };
    futures_executor::block_on(send_with_retry(timed, &request, &POLICY))
}

fn unreachable(origin: &str, why: &str) -> HttpError {
    HttpError::Unreachable { origin: origin.into(), why: why.into() }
}

#[test]
fn fills_in_the_default_and_keeps_a_request_own_timeout() {
    let script =
        Scripted::new(vec![Reply::Now(Ok(ok(200))), Reply::Now(Ok(ok(200))), Reply::Now(Ok(ok(200)))], Probe::Answers);
    let request =
        |timeout_ms| HttpRequest { url: "http://own.test".into(), headers: vec![], body: "{}".into(), timeout_ms };
    let with = timed(&script, Some(300), WATCH, clock(0).1);
    let without = timed(&script, None, WATCH, clock(0).1);
    for (client, request) in [(&with, request(None)), (&with, request(Some(50))), (&without, request(None))] {
        futures_executor::block_on(client.post(&request)).unwrap();
    }
    assert_eq!(*script.timeouts.borrow(), vec![Some(300), Some(50), None]);
    assert_eq!(script.probes.get(), 0, "an answered request sends no probe");
}

#[test]
fn a_silent_host_that_does_not_answer_the_probe_is_down_after_two_connect_timeouts_and_not_retried() {
    let script = Scripted::new(vec![Reply::Never], Probe::Silent);
    let result = call(&timed(&script, Some(60_000), WATCH, clock(0).1), "http://silent.test/v1/chat");
    assert_eq!(result, Err(unreachable("http://silent.test", "no response within 100 ms")));
    assert_eq!((script.posts.get(), script.probes.get(), script.aborted.get()), (1, 1, 1), "one request, aborted");
    assert_eq!(*script.sleeps.borrow(), vec![100, 100], "the wait for a response, then for the probe");
}

#[test]
fn a_slow_host_that_answers_the_probe_is_waited_for() {
    let script = Scripted::new(vec![Reply::AfterProbe(200)], Probe::Answers);
    let result = call(&timed(&script, Some(60_000), WATCH, clock(0).1), "http://slow.test/v1/chat");
    assert_eq!(result.unwrap().status, 200);
    assert_eq!((script.posts.get(), script.probes.get(), script.aborted.get()), (1, 1, 0));
}

#[test]
fn a_failure_without_an_answer_is_probed_once_retried_when_the_host_answers_and_not_when_it_does_not() {
    let refused = || Reply::Now(Err(HttpError::Network("connection refused".into())));
    let script = Scripted::new(vec![refused()], Probe::Refuses);
    let result = call(&timed(&script, Some(60_000), WATCH, clock(0).1), "http://refusing.test/v1");
    assert_eq!(result, Err(unreachable("http://refusing.test", "network error: connection refused")));
    assert_eq!((script.posts.get(), script.probes.get()), (1, 1));

    let script = Scripted::new(vec![refused(), Reply::Now(Ok(ok(200)))], Probe::Answers);
    let result = call(&timed(&script, Some(60_000), WATCH, clock(0).1), "http://dropping.test/v1");
    assert_eq!(result.unwrap().status, 200, "a host that answers the probe is up: the failure is retried");
    assert_eq!((script.posts.get(), script.probes.get()), (2, 1));
}

#[test]
fn a_timeout_within_connect_timeout_is_probed_within_the_timeout() {
    let script = Scripted::new(vec![Reply::Now(Err(HttpError::Timeout(50)))], Probe::Silent);
    let result = call(&timed(&script, Some(50), WATCH, clock(0).1), "http://short.test/v1");
    assert_eq!(result, Err(unreachable("http://short.test", "no response within 50 ms")));
    assert_eq!(*script.sleeps.borrow(), vec![50], "no alarm (the timeout comes first), a probe bounded by it");

    let script = Scripted::new(vec![Reply::Now(Err(HttpError::Timeout(50))); 4], Probe::Answers);
    let result = call(&timed(&script, Some(50), WATCH, clock(0).1), "http://busy.test/v1");
    assert_eq!(result, Err(HttpError::Timeout(50)), "a host that answers is retried within the budget");
    assert_eq!(script.posts.get(), 4);
}

#[test]
fn the_breaker_fails_calls_at_once_then_lets_one_try_after_the_cool_down() {
    let script = Scripted::new(
        vec![Reply::Never, Reply::Never, Reply::Now(Ok(ok(200))), Reply::Now(Ok(ok(200)))],
        Probe::Silent,
    );
    let (time, now) = clock(1_000);
    let client = timed(&script, Some(60_000), WATCH, now);
    let url = "http://flaky.test/v1/embeddings";
    assert!(matches!(call(&client, url), Err(HttpError::Unreachable { .. })));
    let open = |since_ms, retry_at_ms| {
        Err(HttpError::CircuitOpen { origin: "http://flaky.test".into(), since_ms, retry_at_ms: Some(retry_at_ms) })
    };
    time.set(1_999);
    assert_eq!(call(&client, url), open(1_000, 2_000));
    assert_eq!((script.posts.get(), script.probes.get()), (1, 1), "nothing sent while open");

    time.set(2_000);
    assert!(matches!(call(&client, url), Err(HttpError::Unreachable { .. })), "one call tries, the host is still down");
    assert_eq!(call(&client, url), open(1_000, 3_000), "open again: the outage started at the first failure");
    assert_eq!(script.posts.get(), 2);

    script.probe.set(Probe::Answers);
    time.set(3_000);
    assert_eq!(call(&client, url).unwrap().status, 200, "back: the breaker closes");
    assert_eq!(call(&client, url).unwrap().status, 200);
    assert_eq!(script.posts.get(), 4);
}

#[test]
fn outages_are_shared_by_origin_and_a_zero_cool_down_turns_the_breaker_off() {
    let script = Scripted::new(vec![Reply::Never, Reply::Now(Ok(ok(200))), Reply::Never], Probe::Silent);
    let now = clock(0).1;
    let first = timed(&script, Some(60_000), WATCH, now.clone());
    let second = timed(&script, Some(60_000), WATCH, now.clone());
    assert!(matches!(call(&first, "http://shared.test/v1/chat"), Err(HttpError::Unreachable { .. })));
    assert!(matches!(call(&second, "http://SHARED.test/v1/embeddings"), Err(HttpError::CircuitOpen { .. })));
    assert_eq!(call(&second, "http://other.test/v1").unwrap().status, 200, "another origin is not affected");
    let off = timed(&script, Some(60_000), HostWatch { cool_down_ms: 0, ..WATCH }, now);
    assert!(matches!(call(&off, "http://shared.test/v1"), Err(HttpError::Unreachable { .. })), "sent anyway");
    assert_eq!(script.posts.get(), 3);
}

#[test]
fn one_call_at_a_time_tries_a_host_again() {
    let (time, now) = clock(0);
    let breaker = Breaker::new(1_000, now);
    breaker.enter("http://trial.test").unwrap().settle(Host::Down);
    time.set(1_000);
    let trial = breaker.enter("http://trial.test").unwrap();
    let busy = breaker.enter("http://trial.test").err().unwrap();
    assert_eq!(busy, HttpError::CircuitOpen { origin: "http://trial.test".into(), since_ms: 0, retry_at_ms: None });
    drop(trial); // its call was dropped: the next one may try
    breaker.enter("http://trial.test").unwrap().settle(Host::Up);
    breaker.enter("http://trial.test").unwrap();
}

#[test]
fn no_probe_when_connect_timeout_is_zero() {
    let script = Scripted::new(vec![Reply::Now(Err(HttpError::Timeout(50))); 4], Probe::Silent);
    let client = timed(&script, Some(50), HostWatch { connect_timeout_ms: 0, ..WATCH }, clock(0).1);
    assert_eq!(call(&client, "http://unwatched.test/v1"), Err(HttpError::Timeout(50)));
    assert_eq!((script.posts.get(), script.probes.get()), (4, 0), "retried as before; nothing learnt");
}
