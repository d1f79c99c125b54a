//! Reading a request's body with a bound, and draining it. Answers given before the body mattered (401 bad
//! token, 403, 404 unknown route, 415, 413, a config error, and with `STORAGE = "do"` whatever the object left
//! unread: the directory's 404, `NOT_SHARDED`) still leave the client's keep-alive connection usable: the
//! unread rest of the body is read and dropped first, chunk by chunk. Left unread, workerd cannot reuse the
//! connection and resets it, and the client's next request on it fails with ECONNRESET (a `Connection: close`
//! header does not help: workerd drops it). Draining is bounded: a body declared or found larger than
//! `DRAIN_FACTOR` times `MAX_BODY_BYTES` is left as it is, and its connection closes.

use js_sys::{Reflect, Uint8Array};
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;
use worker::web_sys::ReadableStreamDefaultReader;
use worker::{Env, Request, Response};

use crate::settings;

/// How many times `MAX_BODY_BYTES` an early answer reads (and drops) to keep the connection usable.
pub const DRAIN_FACTOR: usize = 8;

/// `response`, once what is left of `request`'s body is drained (see the module docs).
pub async fn settle(request: &mut Request, env: &Env, response: worker::Result<Response>) -> worker::Result<Response> {
    drain(request, env).await;
    response
}

/// Reads and drops the unread body of `request`, if any, up to `DRAIN_FACTOR` times the body limit.
async fn drain(request: &mut Request, env: &Env) {
    if request.inner().body_used() {
        return;
    }
    let limit = settings::max_body_bytes(env).unwrap_or(settings::DEFAULT_MAX_BODY_BYTES);
    let cap = limit.saturating_mul(DRAIN_FACTOR);
    let header = request.headers().get("content-length").ok().flatten();
    if header.and_then(|n| n.trim().parse::<u64>().ok()).is_some_and(|n| n > cap as u64) {
        return;
    }
    let _ = read_within(request, 0, cap).await;
}

/// `request`'s body, read chunk by chunk while it holds at most `keep` bytes: `Some` when it fit. A chunk is
/// measured in JS and copied into wasm memory only while the body still fits, so no more than `keep` bytes of
/// it are ever held there, whatever the chunks' sizes; past `keep`, what was kept is dropped and the rest is
/// read and dropped up to `cap` bytes in all, so the connection stays usable (a larger body is left, and its
/// connection closes).
pub async fn read_within(request: &mut Request, keep: usize, cap: usize) -> worker::Result<Option<Vec<u8>>> {
    let Some(body) = request.inner().body() else { return Ok(Some(Vec::new())) };
    let reader: ReadableStreamDefaultReader = body.get_reader().unchecked_into();
    let (mut kept, mut read) = (Some(Vec::new()), 0usize);
    while read <= cap {
        let next = JsFuture::from(reader.read()).await?;
        if Reflect::get(&next, &"done".into())?.as_bool().unwrap_or(true) {
            break;
        }
        let chunk: Uint8Array = Reflect::get(&next, &"value".into())?.unchecked_into();
        read = read.saturating_add(chunk.length() as usize);
        match kept.as_mut() {
            Some(bytes) if read <= keep => {
                let start = bytes.len();
                if read > bytes.capacity() {
                    // Doubling, but never past `keep`: what is held stays within the bound as it grows.
                    bytes.reserve_exact((bytes.capacity() * 2).clamp(read, keep) - start);
                }
                bytes.resize(read, 0);
                chunk.copy_to(&mut bytes[start..]);
            }
            _ => kept = None,
        }
    }
    Ok(kept)
}
