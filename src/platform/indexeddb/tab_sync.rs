//! Tells the other tabs (and other `Memory` instances) on the same database what a write changed, over a
//! `BroadcastChannel` named after the database, and hears what theirs changed. Notices carry ids and the
//! write's change number only; the receiver re-reads those memories from IndexedDB, which stays the single
//! source of truth.

use serde::{Deserialize, Serialize};
use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsCast;
use web_sys::{BroadcastChannel, MessageEvent};

use super::stored_json::from_stored;

/// What one write changed.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Notice {
    /// Everything was deleted first.
    pub cleared: bool,
    /// Memories written or deleted.
    pub ids: Vec<String>,
    /// The write's change number (see `journal`); 0 from a memwasm that sent none.
    #[serde(default)]
    pub change: u64,
}

/// One end of the database's channel. Without `BroadcastChannel` (old browsers) it does nothing: each
/// instance then sees other tabs' writes when it is next opened.
pub struct TabSync {
    channel: Option<BroadcastChannel>,
    _on_message: Option<Closure<dyn FnMut(MessageEvent)>>,
}

impl TabSync {
    /// Joins the channel of database `db_name`; `on_notice` receives what other instances announce.
    pub fn join(db_name: &str, on_notice: impl Fn(Notice) + 'static) -> Self {
        let Ok(channel) = BroadcastChannel::new(&format!("memwasm:{db_name}")) else {
            return Self { channel: None, _on_message: None };
        };
        let on_message = Closure::<dyn FnMut(MessageEvent)>::new(move |event: MessageEvent| {
            if let Ok(notice) = from_stored::<Notice>(&event.data()) {
                on_notice(notice);
            }
        });
        channel.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
        Self { channel: Some(channel), _on_message: Some(on_message) }
    }

    /// Tells the other instances what a write changed (one JSON text parsed by JS: a bulk write's ids
    /// cross into JS at once, not one string at a time).
    pub fn announce(&self, notice: &Notice) {
        let Some(channel) = &self.channel else { return };
        let Some(message) = serde_json::to_string(notice).ok().and_then(|text| js_sys::JSON::parse(&text).ok()) else {
            return;
        };
        let _ = channel.post_message(&message);
    }
}

impl Drop for TabSync {
    fn drop(&mut self) {
        if let Some(channel) = &self.channel {
            channel.set_onmessage(None);
            channel.close();
        }
    }
}
