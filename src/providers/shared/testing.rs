//! A recording `HttpClient` for provider unit tests.

use std::cell::RefCell;

use crate::http::{HttpClient, HttpError, HttpRequest, HttpResponse};

#[derive(Default)]
pub struct Recorder {
    pub replies: RefCell<Vec<Result<HttpResponse, HttpError>>>,
    pub requests: RefCell<Vec<HttpRequest>>,
}

impl Recorder {
    pub fn replying(status: u16, body: &str) -> Self {
        let recorder = Self::default();
        recorder.replies.borrow_mut().push(Ok(HttpResponse { status, retry_after: None, body: body.into() }));
        recorder
    }

    /// Replies with each `(status, body)` in turn.
    pub fn with_replies(replies: &[(u16, &str)]) -> Self {
        let recorder = Self::default();
        for (status, body) in replies {
            let reply = HttpResponse { status: *status, retry_after: None, body: (*body).into() };
            recorder.replies.borrow_mut().push(Ok(reply));
        }
        recorder
    }

    pub fn body(&self) -> serde_json::Value {
        self.body_of(0)
    }

    /// The JSON body of request `index`.
    pub fn body_of(&self, index: usize) -> serde_json::Value {
        serde_json::from_str(&self.requests.borrow()[index].body).unwrap()
    }

    /// The value of header `name` in the first request.
    pub fn header(&self, name: &str) -> Option<String> {
        self.requests.borrow()[0].headers.iter().find(|(n, _)| n == name).map(|(_, v)| v.clone())
    }
}

impl HttpClient for Recorder {
    async fn post(&self, request: &HttpRequest) -> Result<HttpResponse, HttpError> {
        self.requests.borrow_mut().push(request.clone());
        self.replies.borrow_mut().remove(0)
    }
    async fn sleep(&self, _: u32) {}
}
