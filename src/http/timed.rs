//! A client that gives each request without a timeout of its own a default one: how the model providers
//! get `llm.config.timeoutMs` / `embedder.config.timeoutMs` without each of them carrying it.

use std::borrow::Cow;

use super::{HttpClient, HttpError, HttpRequest, HttpResponse};

/// `client`, with `timeout_ms` (when set) for every request that names none.
#[derive(Debug, Clone, Copy, Default)]
pub struct Timed<C> {
    pub client: C,
    pub timeout_ms: Option<u32>,
}

impl<C> Timed<C> {
    pub fn new(client: C, timeout_ms: Option<u32>) -> Self {
        Self { client, timeout_ms }
    }
}

impl<C: HttpClient> HttpClient for Timed<C> {
    async fn post(&self, request: &HttpRequest) -> Result<HttpResponse, HttpError> {
        let request = match (request.timeout_ms, self.timeout_ms) {
            (None, Some(ms)) => Cow::Owned(HttpRequest { timeout_ms: Some(ms), ..request.clone() }),
            _ => Cow::Borrowed(request),
        };
        self.client.post(&request).await
    }

    async fn sleep(&self, ms: u32) {
        self.client.sleep(ms).await
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::cell::RefCell;

    #[derive(Default)]
    struct Seen(RefCell<Vec<Option<u32>>>);

    impl HttpClient for Seen {
        async fn post(&self, request: &HttpRequest) -> Result<HttpResponse, HttpError> {
            self.0.borrow_mut().push(request.timeout_ms);
            Err(HttpError::Timeout(request.timeout_ms.unwrap_or_default()))
        }
        async fn sleep(&self, _: u32) {}
    }

    #[test]
    fn fills_in_the_default_and_keeps_a_request_own_timeout() {
        let request =
            |timeout_ms| HttpRequest { url: "http://x".into(), headers: vec![], body: "{}".into(), timeout_ms };
        let timed = Timed::new(Seen::default(), Some(300));
        let _ = futures_executor::block_on(timed.post(&request(None)));
        let _ = futures_executor::block_on(timed.post(&request(Some(50))));
        let untimed = Timed::new(Seen::default(), None);
        let _ = futures_executor::block_on(untimed.post(&request(None)));
        assert_eq!(*timed.client.0.borrow(), vec![Some(300), Some(50)]);
        assert_eq!(*untimed.client.0.borrow(), vec![None]);
    }
}
