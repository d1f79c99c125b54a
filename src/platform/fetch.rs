//! `HttpClient` over the global `fetch` and `setTimeout`, which every JS host we target has
//! (`window` does not exist in Node or Workers, so nothing here touches it). Every request and probe has an
//! `AbortController` that aborts it when its future is dropped (a request the dead-host watch gave up on, a
//! probe cut short), so no connection to a dead host stays open; timers are cleared the same way, so none
//! holds Node's event loop open.

use js_sys::{Function, Promise};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;
use web_sys::{AbortController, Headers, Request, RequestCredentials, RequestInit, RequestMode, Response};

use super::timer::{clear_timeout, set_timeout};
use crate::http::{HttpClient, HttpError, HttpRequest, HttpResponse};

#[wasm_bindgen]
extern "C" {
    #[wasm_bindgen(js_name = fetch, catch)]
    fn global_fetch(request: &Request) -> Result<Promise, JsValue>;

    /// `fetch(url, init)`: Node's fetch builds its `Request` from these once, where a `Request` given to
    /// it is built again (its signal followed by a new one), which cost each model call 0.3 ms.
    #[wasm_bindgen(js_name = fetch, catch)]
    fn fetch_with(url: &str, init: &RequestInit) -> Result<Promise, JsValue>;
}

/// Sends requests with the host's `fetch`.
#[derive(Debug, Clone, Copy, Default)]
pub struct FetchClient;

/// A `setTimeout`, cleared when dropped (clearing one that fired does nothing).
struct Timer(JsValue);

impl Drop for Timer {
    fn drop(&mut self) {
        clear_timeout(&self.0);
    }
}

/// An `AbortController` that aborts when dropped unless its request has [`finished`](Self::finished):
/// an abort builds a `DOMException` (0.1 ms in Node) and a finished request has nothing left to stop.
struct Abort(AbortController, bool);

impl Abort {
    fn new() -> Result<Self, JsValue> {
        AbortController::new().map(|controller| Self(controller, false))
    }

    /// Notes that the request has been answered in full, so dropping this aborts nothing.
    fn finished(&mut self) {
        self.1 = true;
    }

    /// Aborts after `ms` milliseconds, unless the timer is dropped first.
    fn after(&self, ms: u32) -> Result<Timer, JsValue> {
        let abort: Function = js_sys::Reflect::get(&self.0, &"abort".into())?.dyn_into()?;
        Ok(Timer(set_timeout(&abort.bind0(&self.0), f64::from(ms.min(i32::MAX as u32)))))
    }

    fn aborted(&self) -> bool {
        self.0.signal().aborted()
    }
}

impl Drop for Abort {
    fn drop(&mut self) {
        if !self.1 {
            self.0.abort();
        }
    }
}

/// True when a probe's failure says nothing answered: the system's reason for it (Node's `cause.code`, such as
/// `ECONNREFUSED` or `ENOTFOUND`). Browsers give no reason, and also fail a `no-cors` probe that did get an
/// answer (opaque-response blocking turns most API hosts' JSON and error answers into network errors), so a
/// failure without a reason proves nothing (workerd's "Network connection lost" neither): only silence does.
fn refused(error: &JsValue) -> bool {
    let cause = js_sys::Reflect::get(error, &"cause".into()).unwrap_or(JsValue::UNDEFINED);
    !cause.is_undefined()
        && !cause.is_null()
        && js_sys::Reflect::get(&cause, &"code".into()).is_ok_and(|c| c.is_string())
}

/// A JS exception's message, for a network error.
fn network_error(error: JsValue) -> HttpError {
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

/// The `fetch` init of a POST of `request`, stopped by `abort`.
fn init(request: &HttpRequest, abort: &Abort) -> Result<RequestInit, JsValue> {
    let headers = Headers::new()?;
    for (name, value) in &request.headers {
        headers.set(name, value)?;
    }
    let init = RequestInit::new();
    init.set_method("POST");
    init.set_headers(&headers);
    init.set_body(&JsValue::from_str(&request.body));
    init.set_signal(Some(&abort.0.signal()));
    Ok(init)
}

/// `GET <origin>/`, `no-cors` (in browsers no CORS check and no preflight, whatever the origin allows) and
/// without cookies. Node and today's workerd accept both fields; older workerd releases refuse them (their
/// `Request` throws), so there, and in any host that does, the plain GET, which sends no credentials either.
fn probe_request(origin: &str, abort: &Abort) -> Result<Request, JsValue> {
    let url = format!("{origin}/");
    let init = RequestInit::new();
    init.set_method("GET");
    init.set_signal(Some(&abort.0.signal()));
    let browser = RequestInit::new();
    browser.set_method("GET");
    browser.set_signal(Some(&abort.0.signal()));
    browser.set_mode(RequestMode::NoCors);
    browser.set_credentials(RequestCredentials::Omit);
    Request::new_with_str_and_init(&url, &browser).or_else(|_| Request::new_with_str_and_init(&url, &init))
}

impl HttpClient for FetchClient {
    async fn post(&self, request: &HttpRequest) -> Result<HttpResponse, HttpError> {
        let mut abort = Abort::new().map_err(network_error)?;
        let _deadline = request.timeout_ms.map(|ms| abort.after(ms)).transpose().map_err(network_error)?;
        // Only the deadline aborts while this future runs (a drop ends it): an aborted signal is the timeout.
        let failed = |error| match (abort.aborted(), request.timeout_ms) {
            (true, Some(ms)) => HttpError::Timeout(ms),
            _ => network_error(error),
        };
        let init = init(request, &abort).map_err(network_error)?;
        let promise = fetch_with(&request.url, &init).map_err(network_error)?;
        let response: Response = JsFuture::from(promise).await.map_err(failed)?.unchecked_into();
        let retry_after = response.headers().get("retry-after").ok().flatten();
        let text = JsFuture::from(response.text().map_err(failed)?).await.map_err(failed)?;
        abort.finished();
        Ok(HttpResponse { status: response.status(), retry_after, body: text.as_string().unwrap_or_default() })
    }

    async fn sleep(&self, ms: u32) {
        let mut timer = None;
        let wait = Promise::new(&mut |resolve, _reject| {
            timer = Some(Timer(set_timeout(&resolve, f64::from(ms.min(i32::MAX as u32)))));
        });
        let _ = JsFuture::from(wait).await;
        drop(timer);
    }

    async fn probe(&self, origin: &str) -> bool {
        // A host where neither can be made cannot be probed: say it answers, so nothing is cut short.
        let Ok(abort) = Abort::new() else { return true };
        let Ok(request) = probe_request(origin, &abort) else { return true };
        match global_fetch(&request) {
            Ok(promise) => JsFuture::from(promise).await.map_or_else(|error| !refused(&error), |_| true),
            Err(error) => !refused(&error),
        }
    }
}
