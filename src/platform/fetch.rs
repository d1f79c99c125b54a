//! `HttpClient` over the global `fetch` and `setTimeout`, which every JS host we target has
//! (`window` does not exist in Node or Workers, so nothing here touches it).

use js_sys::Promise;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;
use web_sys::{Headers, Request, RequestInit, Response};

use crate::http::{HttpClient, HttpError, HttpRequest, HttpResponse};

#[wasm_bindgen]
extern "C" {
    #[wasm_bindgen(js_name = fetch, catch)]
    fn global_fetch(request: &Request) -> Result<Promise, JsValue>;
}

/// Sends requests with the host's `fetch`.
#[derive(Debug, Clone, Copy, Default)]
pub struct FetchClient;

/// A JS exception's message, for a network error; the abort of a request's `AbortSignal.timeout` (a
/// `TimeoutError`) is `HttpError::Timeout`.
fn network_error(error: JsValue, timeout_ms: Option<u32>) -> HttpError {
    let name = js_sys::Reflect::get(&error, &"name".into()).ok().and_then(|name| name.as_string());
    if let (Some("TimeoutError"), Some(ms)) = (name.as_deref(), timeout_ms) {
        return HttpError::Timeout(ms);
    }
    let message = error
        .dyn_ref::<js_sys::Error>()
        .map(|e| {
            let cause = js_sys::Reflect::get(e, &"cause".into()).ok().filter(|c| !c.is_undefined());
            let cause =
                cause.and_then(|c| js_sys::Reflect::get(&c, &"message".into()).ok()).and_then(|m| m.as_string());
            match cause {
                Some(cause) => format!("{} ({cause})", String::from(e.message())),
                None => String::from(e.message()),
            }
        })
        .or_else(|| error.as_string())
        .unwrap_or_else(|| "fetch failed".into());
    HttpError::Network(message)
}

fn build(request: &HttpRequest) -> Result<Request, JsValue> {
    let headers = Headers::new()?;
    for (name, value) in &request.headers {
        headers.set(name, value)?;
    }
    let init = RequestInit::new();
    init.set_method("POST");
    init.set_headers(&headers);
    init.set_body(&JsValue::from_str(&request.body));
    if let Some(ms) = request.timeout_ms {
        init.set_signal(Some(&web_sys::AbortSignal::timeout_with_u32(ms)));
    }
    Request::new_with_str_and_init(&request.url, &init)
}

impl HttpClient for FetchClient {
    async fn post(&self, request: &HttpRequest) -> Result<HttpResponse, HttpError> {
        let timeout_ms = request.timeout_ms;
        let network_error = |error| network_error(error, timeout_ms);
        let request = build(request).map_err(network_error)?;
        let promise = global_fetch(&request).map_err(network_error)?;
        let response: Response = JsFuture::from(promise).await.map_err(network_error)?.unchecked_into();
        let retry_after = response.headers().get("retry-after").ok().flatten();
        let text = JsFuture::from(response.text().map_err(network_error)?).await.map_err(network_error)?;
        Ok(HttpResponse { status: response.status(), retry_after, body: text.as_string().unwrap_or_default() })
    }

    async fn sleep(&self, ms: u32) {
        let wait = Promise::new(&mut |resolve, _reject| {
            super::timer::set_timeout(&resolve, f64::from(ms.min(i32::MAX as u32)));
        });
        let _ = JsFuture::from(wait).await;
    }
}
