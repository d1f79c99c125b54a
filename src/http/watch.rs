//! One request watched for a dead host. A non-streaming completion sends its response headers only once the
//! whole reply is generated, so silence alone cannot tell a dead host from a slow model. After `connect_ms`
//! without a response, one liveness probe goes to the request's origin (`HttpClient::probe`, bounded by
//! `connect_ms` too): any answer means the host is up, and the request keeps waiting up to its own timeout;
//! none (silence, or a refused connection) means it is down, and the request is dropped (the client aborts
//! it) with `Unreachable`. A request
//! that failed without any answer (a network error such as a refused connection, its timeout) is probed the
//! same way, unless a probe answered already: a host that answers it is up, and the failure is retried as
//! before; one that does not is down. So a dead host costs a call at most about twice `connect_ms`.

use std::pin::pin;

use futures_util::future::{select, Either};

use super::breaker::Host;
use super::{HttpClient, HttpError, HttpRequest, HttpResponse};

/// What a watched request came to, and what it learnt about its host.
pub(super) struct Watched {
    pub result: Result<HttpResponse, HttpError>,
    pub host: Host,
}

/// Sends `request` to `origin`, watching for a dead host after `connect_ms` (0: never; the request waits
/// its own timeout, and nothing is learnt from a failure).
pub(super) async fn send<C: HttpClient>(client: &C, request: &HttpRequest, origin: &str, connect_ms: u32) -> Watched {
    if connect_ms == 0 {
        let result = client.post(request).await;
        let host = if result.is_ok() { Host::Up } else { Host::Unknown };
        return Watched { result, host };
    }
    let bound = request.timeout_ms.map_or(connect_ms, |total| total.min(connect_ms));
    let (result, probed) = {
        let post = pin!(client.post(request));
        if request.timeout_ms.is_some_and(|total| total <= connect_ms) {
            (post.await, false)
        } else {
            let alarm = pin!(async {
                client.sleep(connect_ms).await;
                answers(client, origin, connect_ms).await
            });
            match select(post, alarm).await {
                Either::Left((result, _)) => (result, false),
                Either::Right((true, post)) => (post.await, true),
                Either::Right((false, _)) => return down(origin, format!("no response within {connect_ms} ms")),
            }
        }
    };
    match result {
        Ok(response) => Watched { result: Ok(response), host: Host::Up },
        Err(error) if probed || answers(client, origin, bound).await => Watched { result: Err(error), host: Host::Up },
        Err(error) => down(origin, error.to_string()),
    }
}

/// True when `origin` answers a probe within `bound_ms`.
async fn answers<C: HttpClient>(client: &C, origin: &str, bound_ms: u32) -> bool {
    let probe = pin!(client.probe(origin));
    let limit = pin!(client.sleep(bound_ms));
    matches!(select(probe, limit).await, Either::Left((true, _)))
}

fn down(origin: &str, why: String) -> Watched {
    Watched { result: Err(HttpError::Unreachable { origin: origin.to_owned(), why }), host: Host::Down }
}
