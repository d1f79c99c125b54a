//! A client that bounds every request of one model: how the providers get `config.timeoutMs`,
//! `connectTimeoutMs` and `coolDownMs` without each of them carrying them. A request without a timeout of its
//! own gets the model's; it is watched for a dead host (`watch`) and goes through the breaker (`breaker`),
//! which fails it at once while its host is remembered down.

use std::borrow::Cow;

use super::breaker::Breaker;
use super::{origin, watch, HttpClient, HttpError, HttpRequest, HttpResponse};

/// How a model's requests watch their host: `connectTimeoutMs` and `coolDownMs`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HostWatch {
    /// A request with no response for this long sends a liveness probe, bounded by this long too (0: none).
    pub connect_timeout_ms: u32,
    /// How long calls to a host found down fail at once (0: the breaker is off).
    pub cool_down_ms: u32,
}

impl HostWatch {
    /// 5 s: far longer than a live host takes to answer a probe, short enough for a dead one to cost seconds.
    pub const DEFAULT_CONNECT_TIMEOUT_MS: u32 = 5_000;
    /// 30 s without calls to a host found down.
    pub const DEFAULT_COOL_DOWN_MS: u32 = 30_000;
}

impl Default for HostWatch {
    fn default() -> Self {
        Self { connect_timeout_ms: Self::DEFAULT_CONNECT_TIMEOUT_MS, cool_down_ms: Self::DEFAULT_COOL_DOWN_MS }
    }
}

/// `client`, with `timeout_ms` (when set) for every request that names none, watched per `connect_timeout_ms`
/// and guarded by `breaker`.
#[derive(Debug, Clone)]
pub struct Timed<C> {
    pub client: C,
    pub timeout_ms: Option<u32>,
    pub connect_timeout_ms: u32,
    pub breaker: Breaker,
}

impl<C> Timed<C> {
    /// `client` bounded per `timeout_ms` and `watch`; the breaker reads `now`.
    pub fn new(client: C, timeout_ms: Option<u32>, watch: HostWatch, now: super::Now) -> Self {
        let breaker = Breaker::new(watch.cool_down_ms, now);
        Self { client, timeout_ms, connect_timeout_ms: watch.connect_timeout_ms, breaker }
    }
}

impl<C: HttpClient> HttpClient for Timed<C> {
    async fn post(&self, request: &HttpRequest) -> Result<HttpResponse, HttpError> {
        let request = match (request.timeout_ms, self.timeout_ms) {
            (None, Some(ms)) => Cow::Owned(HttpRequest { timeout_ms: Some(ms), ..request.clone() }),
            _ => Cow::Borrowed(request),
        };
        let origin = origin(&request.url);
        let pass = self.breaker.enter(&origin)?;
        let watched = watch::send(&self.client, &request, &origin, self.connect_timeout_ms).await;
        pass.settle(watched.host);
        watched.result
    }

    async fn sleep(&self, ms: u32) {
        self.client.sleep(ms).await
    }

    async fn probe(&self, origin: &str) -> bool {
        self.client.probe(origin).await
    }
}

#[cfg(test)]
#[path = "timed_tests.rs"]
mod tests;
