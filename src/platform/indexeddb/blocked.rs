//! An open that another connection blocks. Opening at a newer schema version asks every other connection to
//! the database to close (`versionchange`); memwasm's own connections do at once (see `connection`), so a
//! `blocked` event means one that does not: an older memwasm in another tab, or another program. The browser
//! would then wait for it for good. The open gives up [`BLOCKED_WAIT_MS`] after `blocked` instead (unless the
//! upgrade started meanwhile), and the request it leaves behind, should it still succeed once that
//! connection goes, closes its connection at once, so it never blocks anyone in turn.

use js_sys::Promise;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::{JsCast, JsValue};
use web_sys::{IdbDatabase, IdbOpenDbRequest, IdbRequestReadyState};

use crate::core::error::MemoryError;
use crate::platform::timer::set_timeout;

/// How long an open waits, once blocked, for the other connection to close.
pub const BLOCKED_WAIT_MS: f64 = 3_000.0;

/// A promise that resolves [`BLOCKED_WAIT_MS`] after `request` is blocked if it is still waiting then
/// (never, if it is not blocked, or if the upgrade started or the open settled meanwhile).
pub fn given_up(request: &IdbOpenDbRequest) -> Promise {
    let request = request.clone();
    Promise::new(&mut |resolve, _| {
        let waiting = request.clone();
        let on_blocked = Closure::once_into_js(move |_: JsValue| {
            let check = Closure::once_into_js(move || {
                if still_blocked(&waiting) {
                    let _ = resolve.call0(&JsValue::NULL);
                }
            });
            drop(set_timeout(check.unchecked_ref(), BLOCKED_WAIT_MS));
        });
        request.set_onblocked(Some(on_blocked.unchecked_ref()));
    })
}

/// Whether `request` still waits for the other connections: not settled, and no upgrade under way.
fn still_blocked(request: &IdbOpenDbRequest) -> bool {
    request.ready_state() == IdbRequestReadyState::Pending && request.transaction().is_none()
}

/// Leaves `request` behind: the connection it opens, if it ever does, is closed as soon as it is (a Rust
/// closure, not JS source: a page's content security policy may forbid `new Function`).
pub fn abandon(request: &IdbOpenDbRequest) {
    let opened = request.clone();
    let close = Closure::once_into_js(move |_: JsValue| {
        if let Ok(database) = opened.result() {
            database.unchecked_into::<IdbDatabase>().close();
        }
    });
    request.set_onsuccess(Some(close.unchecked_ref()));
}

/// The error of an open given up on.
pub fn blocked_error(name: &str, version: u32) -> MemoryError {
    MemoryError::StorageUnavailable(format!(
        "IndexedDB database \"{name}\" is held open by another tab or window that does not let go (an older \
         memwasm, or another program), and opening it needs schema version {version}: close or reload that \
         tab, then open again; nothing was read or written"
    ))
}
