//! Exponential back-off on 408, 429, 5xx, network errors and timeouts, honouring `Retry-After`; never for a
//! host found down (`Unreachable`, `CircuitOpen`). The policy is the whole budget of one call: callers above
//! do not retry what this already retried.

use super::{error_message, is_transient_status, HttpClient, HttpError, HttpRequest, HttpResponse};

/// How often and how long to retry a request.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RetryPolicy {
    /// Retries after the first attempt.
    pub max_retries: u32,
    /// First delay; doubles each retry.
    pub base_delay_ms: u32,
    /// Upper bound for any single delay, `Retry-After` included.
    pub max_delay_ms: u32,
}

impl Default for RetryPolicy {
    fn default() -> Self {
        Self { max_retries: 3, base_delay_ms: 1000, max_delay_ms: 30_000 }
    }
}

impl RetryPolicy {
    /// The wait before retry number `attempt` (0-based): `Retry-After` seconds when given, else exponential.
    pub fn delay_ms(&self, attempt: u32, retry_after: Option<&str>) -> u32 {
        let from_header = retry_after
            // serde_json's number parser, which the .wasm has anyway (`str::parse::<f64>` adds ~15 KB).
            .and_then(|value| serde_json::from_str::<f64>(value.trim()).ok())
            .filter(|seconds| seconds.is_finite() && *seconds >= 0.0)
            .map(|seconds| (seconds * 1000.0).min(u32::MAX as f64) as u32);
        let exponential = self.base_delay_ms.saturating_mul(1u32.checked_shl(attempt).unwrap_or(u32::MAX));
        from_header.unwrap_or(exponential).min(self.max_delay_ms)
    }
}

/// Sends `request`, retrying transient failures; `Ok` only for a 2xx response.
pub async fn send_with_retry<C: HttpClient>(
    client: &C,
    request: &HttpRequest,
    policy: &RetryPolicy,
) -> Result<HttpResponse, HttpError> {
    let mut attempt = 0;
    loop {
        let (error, retry_after) = match client.post(request).await {
            Ok(response) if response.is_success() => return Ok(response),
            Ok(response) => {
                let error = HttpError::Status { status: response.status, message: error_message(&response.body) };
                if !is_transient_status(response.status) {
                    return Err(error);
                }
                (error, response.retry_after)
            }
            Err(error) if !error.is_transient() => return Err(error),
            Err(error) => (error, None),
        };
        if attempt >= policy.max_retries {
            return Err(error);
        }
        client.sleep(policy.delay_ms(attempt, retry_after.as_deref())).await;
        attempt += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::cell::RefCell;

    /// Replays scripted outcomes and records what it was asked to do.
    struct Scripted {
        outcomes: RefCell<Vec<Result<HttpResponse, HttpError>>>,
        calls: RefCell<u32>,
        sleeps: RefCell<Vec<u32>>,
    }

    impl Scripted {
        fn new(mut outcomes: Vec<Result<HttpResponse, HttpError>>) -> Self {
            outcomes.reverse();
            Self { outcomes: RefCell::new(outcomes), calls: RefCell::new(0), sleeps: RefCell::new(vec![]) }
        }
    }

    impl HttpClient for Scripted {
        async fn post(&self, _: &HttpRequest) -> Result<HttpResponse, HttpError> {
            *self.calls.borrow_mut() += 1;
            self.outcomes.borrow_mut().pop().expect("more calls than scripted")
        }
        async fn sleep(&self, ms: u32) {
            self.sleeps.borrow_mut().push(ms);
        }
    }

    fn status(status: u16, retry_after: Option<&str>) -> Result<HttpResponse, HttpError> {
        Ok(HttpResponse {
            status,
            retry_after: retry_after.map(str::to_owned),
            body: format!("{{\"error\":{{\"message\":\"e{status}\"}}}}"),
        })
    }

    fn run(client: &Scripted, policy: RetryPolicy) -> Result<HttpResponse, HttpError> {
        let request = HttpRequest { url: "http://x".into(), headers: vec![], body: "{}".into(), timeout_ms: None };
        futures_executor::block_on(send_with_retry(client, &request, &policy))
    }

    const FAST: RetryPolicy = RetryPolicy { max_retries: 3, base_delay_ms: 10, max_delay_ms: 1000 };

    #[test]
    fn only_no_response_408_429_and_5xx_are_transient() {
        for code in [408, 429, 500, 502, 503, 504] {
            assert!(HttpError::Status { status: code, message: String::new() }.is_transient(), "{code}");
        }
        for code in [400, 401, 403, 404, 409, 413, 422] {
            assert!(!HttpError::Status { status: code, message: String::new() }.is_transient(), "{code}");
        }
        assert!(HttpError::Network("reset".into()).is_transient());
        assert!(HttpError::Timeout(300).is_transient());
    }

    #[test]
    fn retries_408_like_a_429() {
        let client = Scripted::new(vec![status(408, None), status(408, None), status(200, None)]);
        assert_eq!(run(&client, FAST).unwrap().status, 200);
        assert_eq!(*client.calls.borrow(), 3);
    }

    #[test]
    fn retries_timeouts_within_the_budget() {
        let client = Scripted::new(vec![Err(HttpError::Timeout(300)), status(200, None)]);
        assert_eq!(run(&client, FAST).unwrap().status, 200);
        let client = Scripted::new(vec![Err(HttpError::Timeout(300)); 4]);
        assert_eq!(run(&client, FAST), Err(HttpError::Timeout(300)));
        assert_eq!(*client.calls.borrow(), 4, "one attempt and max_retries retries, no more");
    }

    #[test]
    fn retries_429_and_5xx_with_exponential_backoff_then_succeeds() {
        let client = Scripted::new(vec![status(500, None), status(503, None), status(429, None), status(200, None)]);
        assert_eq!(run(&client, FAST).unwrap().status, 200);
        assert_eq!(*client.calls.borrow(), 4);
        assert_eq!(*client.sleeps.borrow(), vec![10, 20, 40]);
    }

    #[test]
    fn honours_retry_after_capped_by_max_delay() {
        let client = Scripted::new(vec![status(429, Some("0.5")), status(429, Some("120")), status(200, None)]);
        run(&client, FAST).unwrap();
        assert_eq!(*client.sleeps.borrow(), vec![500, 1000]);
    }

    #[test]
    fn gives_up_after_max_retries_with_the_last_status() {
        let client = Scripted::new(vec![status(500, None); 4]);
        let error = run(&client, FAST).unwrap_err();
        assert_eq!(error, HttpError::Status { status: 500, message: "e500".into() });
        assert_eq!(*client.calls.borrow(), 4);
    }

    #[test]
    fn does_not_retry_other_4xx() {
        for code in [400, 401, 403, 404, 422] {
            let client = Scripted::new(vec![status(code, None)]);
            assert!(matches!(run(&client, FAST), Err(HttpError::Status { status, .. }) if status == code));
            assert_eq!(*client.calls.borrow(), 1);
            assert!(client.sleeps.borrow().is_empty());
        }
    }

    #[test]
    fn retries_network_errors() {
        let client = Scripted::new(vec![Err(HttpError::Network("reset".into())), status(200, None)]);
        assert_eq!(run(&client, FAST).unwrap().status, 200);
        let client = Scripted::new(vec![Err(HttpError::Network("down".into())); 2]);
        let policy = RetryPolicy { max_retries: 1, ..FAST };
        assert_eq!(run(&client, policy), Err(HttpError::Network("down".into())));
    }

    #[test]
    fn a_host_found_down_is_not_retried() {
        let unreachable = HttpError::Unreachable { origin: "http://h".into(), why: "no response within 5 ms".into() };
        let open = HttpError::CircuitOpen { origin: "http://h".into(), since_ms: 0, retry_at_ms: Some(1) };
        for error in [unreachable, open] {
            let client = Scripted::new(vec![Err(error.clone())]);
            assert_eq!(run(&client, FAST), Err(error));
            assert_eq!((*client.calls.borrow(), client.sleeps.borrow().len()), (1, 0));
        }
    }

    #[test]
    fn zero_retries_means_one_attempt() {
        let client = Scripted::new(vec![status(503, None)]);
        run(&client, RetryPolicy { max_retries: 0, ..FAST }).unwrap_err();
        assert_eq!(*client.calls.borrow(), 1);
    }

    #[test]
    fn delay_ignores_garbage_retry_after_and_never_overflows() {
        assert_eq!(FAST.delay_ms(0, Some("soon")), 10);
        assert_eq!(FAST.delay_ms(0, Some("-3")), 10);
        assert_eq!(RetryPolicy { max_delay_ms: 60_000, ..FAST }.delay_ms(0, Some(" 1.5 ")), 1500);
        assert_eq!(FAST.delay_ms(40, None), 1000);
        let huge = RetryPolicy { max_retries: 3, base_delay_ms: u32::MAX, max_delay_ms: u32::MAX };
        assert_eq!(huge.delay_ms(5, None), u32::MAX);
    }
}
