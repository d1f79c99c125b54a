//! The host's side of [`Pace`]: turns of at most [`TURN_MS`] of work, each ended by `scheduler.yield()` or
//! a `setTimeout` (so a browser page can render and handle input in between), progress reported to an
//! app's `onProgress`, and an `AbortSignal` that stops the call. Where time does not pass during a turn (workerd's clock), turns
//! never end early; the signal is still checked between items.

use std::cell::Cell;
use std::future::Future;
use std::pin::Pin;

use js_sys::{Function, Promise, Reflect};
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;
use web_sys::AbortSignal;

use super::timer::set_timeout;
use crate::core::pace::{Pace, Progress};

/// Milliseconds of work in one turn: well below the 50 ms at which a browser counts a task as long.
pub const TURN_MS: f64 = 25.0;

/// Paces a call for JS: its `onProgress` callback and `signal`, both optional.
pub struct JsPace {
    on_progress: Option<Function>,
    signal: Option<AbortSignal>,
    turn_started: Cell<f64>,
}

impl JsPace {
    /// A pace whose first turn starts now.
    pub fn new(on_progress: Option<Function>, signal: Option<AbortSignal>) -> Self {
        Self { on_progress, signal, turn_started: Cell::new(js_sys::Date::now()) }
    }
}

impl Pace for JsPace {
    fn due(&self) -> bool {
        js_sys::Date::now() - self.turn_started.get() >= TURN_MS
    }

    /// `scheduler.yield()` where the host has it (Chromium: the call goes on before other queued work,
    /// after input and rendering), else a `setTimeout` of 0.
    fn yield_now(&self) -> Pin<Box<dyn Future<Output = ()> + '_>> {
        Box::pin(async {
            let _ = JsFuture::from(scheduler_yield().unwrap_or_else(|| {
                Promise::new(&mut |resolve, _| {
                    set_timeout(&resolve, 0.0);
                })
            }))
            .await;
            self.resumed();
        })
    }

    fn resumed(&self) {
        self.turn_started.set(js_sys::Date::now());
    }

    fn aborted(&self) -> bool {
        self.signal.as_ref().is_some_and(AbortSignal::aborted)
    }

    /// Calls `onProgress({phase, done, total})`; what it throws is logged, and the call goes on.
    fn report(&self, progress: Progress) {
        let Some(callback) = &self.on_progress else { return };
        let report = js_sys::Object::new();
        let set = |key: &str, value: JsValue| Reflect::set(&report, &key.into(), &value);
        let _ = set("phase", progress.phase.name().into());
        let _ = set("done", (progress.done as f64).into());
        let _ = set("total", (progress.total as f64).into());
        if let Err(thrown) = callback.call1(&JsValue::UNDEFINED, &report) {
            web_sys::console::warn_2(&"memwasm: onProgress threw (the call goes on):".into(), &thrown);
        }
    }
}

/// The Promise of `globalThis.scheduler.yield()`, when the host has it.
fn scheduler_yield() -> Option<Promise> {
    let scheduler = Reflect::get(&js_sys::global(), &"scheduler".into()).ok().filter(JsValue::is_object)?;
    let yield_fn = Reflect::get(&scheduler, &"yield".into()).ok()?.dyn_into::<Function>().ok()?;
    yield_fn.call0(&scheduler).ok()?.dyn_into::<Promise>().ok()
}
