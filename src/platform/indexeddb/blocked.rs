//! An open that another connection blocks. Opening at a newer schema version asks every other connection to
//! the database to close (`versionchange`); memwasm's own connections do at once (see `connection`), so a
//! `blocked` event means one that does not: an older memwasm in another tab, or another program. The browser
//! would then wait for it for good. The open gives up [`BLOCKED_WAIT_MS`] after `blocked` instead, and the
//! request it leaves behind, should it still succeed once that connection goes, closes its connection at
//! once, so it never blocks anyone in turn.

use js_sys::{Function, Promise};
use wasm_bindgen::closure::Closure;
use wasm_bindgen::{JsCast, JsValue};
use web_sys::IdbOpenDbRequest;

use crate::core::error::MemoryError;
use crate::platform::timer::set_timeout;

/// How long an open waits, once blocked, for the other connection to close.
pub const BLOCKED_WAIT_MS: f64 = 3_000.0;

/// A promise that resolves [`BLOCKED_WAIT_MS`] after `request` is blocked (never, if it is not).
pub fn given_up(request: &IdbOpenDbRequest) -> Promise {
    let request = request.clone();
    Promise::new(&mut |resolve, _| {
        let on_blocked = Closure::once_into_js(move |_: JsValue| drop(set_timeout(&resolve, BLOCKED_WAIT_MS)));
        request.set_onblocked(Some(on_blocked.unchecked_ref()));
    })
}

/// Leaves `request` behind: the connection it opens, if it ever does, is closed as soon as it is.
pub fn abandon(request: &IdbOpenDbRequest) {
    let closed = Function::new_with_args("event", "event.target.result.close()");
    request.set_onsuccess(Some(&closed));
}

/// The error of an open given up on.
pub fn blocked_error(name: &str, version: u32) -> MemoryError {
    MemoryError::StorageUnavailable(format!(
        "IndexedDB database \"{name}\" is held open by another tab or window that does not let go (an older \
         memwasm, or another program), and opening it needs schema version {version}: close or reload that \
         tab, then open again; nothing was read or written"
    ))
}
