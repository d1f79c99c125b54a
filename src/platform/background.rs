//! The background writer's driver on JS hosts: the core queue decides what is due, this arms one
//! `setTimeout` for the next due batch, runs due batches without awaiting them (`spawn_local`), and reports
//! each outcome to the `change` / `error` listeners. `idle()` resolves once nothing waits or runs.

use std::cell::RefCell;
use std::rc::Rc;

use js_sys::{Function, Promise};
use wasm_bindgen::prelude::*;

use super::compose::Engine;
use super::timer::{clear_timeout, set_timeout};
use crate::core::error::{MemoryError, Result};
use crate::core::model::scope::Scope;
use crate::core::model::types::Message;
use crate::core::tiers::{Background, BackgroundSettings, BatchOutcome};

/// What a listener is told about.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Topic {
    /// A batch was written: `{scope, results, warnings}`.
    Change,
    /// A batch failed for good: `{scope, error, attempts, messages}`.
    Error,
}

impl Topic {
    /// `"change"` or `"error"`; anything else is `INVALID_INPUT`.
    pub fn parse(name: &str) -> Result<Self> {
        match name {
            "change" => Ok(Self::Change),
            "error" => Ok(Self::Error),
            other => Err(MemoryError::InvalidInput(format!("on: unknown event {other:?} (\"change\" or \"error\")"))),
        }
    }
}

/// Turns an outcome into the event listeners get (`None`: no event, e.g. a failure that will be retried).
pub type Present = fn(&BatchOutcome) -> Option<(Topic, JsValue)>;

/// One memory's background writer.
pub struct Writer {
    engine: Rc<Engine>,
    present: Present,
    background: Background,
    listeners: RefCell<Vec<(Topic, Function)>>,
    /// The armed timer's handle and the time it fires at.
    timer: RefCell<Option<(JsValue, i64)>>,
    /// Resolvers of pending `idle()` promises.
    waiting: RefCell<Vec<Function>>,
}

impl Writer {
    pub fn new(engine: Rc<Engine>, settings: BackgroundSettings, present: Present) -> Rc<Self> {
        Rc::new(Self {
            engine,
            present,
            background: Background::new(settings),
            listeners: RefCell::default(),
            timer: RefCell::default(),
            waiting: RefCell::default(),
        })
    }

    /// Queues what a previous session left unwritten (on open) and schedules it.
    pub async fn resume(self: &Rc<Self>) -> Result<()> {
        self.engine.tiers().resume_background(&self.background).await?;
        self.schedule();
        Ok(())
    }

    /// Journals and queues `messages`; resolves once they are persisted, long before they are added.
    pub async fn flush(self: &Rc<Self>, scope: &Scope, messages: Vec<Message>) -> Result<()> {
        let queued = self.engine.tiers().flush_turns(&self.background, scope, messages).await;
        self.schedule();
        queued
    }

    /// A Promise that resolves when nothing waits or runs.
    pub fn idle(self: &Rc<Self>) -> Promise {
        let promise = Promise::new(&mut |resolve, _| self.waiting.borrow_mut().push(resolve));
        self.schedule();
        promise
    }

    pub fn listen(&self, topic: Topic, handler: Function) {
        self.listeners.borrow_mut().push((topic, handler));
    }

    pub fn unlisten(&self, topic: Topic, handler: &Function) {
        self.listeners.borrow_mut().retain(|(t, h)| !(*t == topic && h == handler));
    }

    /// Starts every due batch, arms the timer for the next one, and resolves `idle()` when there is none.
    fn schedule(self: &Rc<Self>) {
        let now = self.engine.now_ms();
        let due = self.background.queue.borrow_mut().take_due(now);
        for batch in due {
            let writer = self.clone();
            wasm_bindgen_futures::spawn_local(async move {
                let outcome = writer.engine.tiers().run_batch(&writer.background, batch).await;
                writer.report(&outcome);
                writer.schedule();
            });
        }
        let next = self.background.queue.borrow().next_due();
        match next {
            Some(at) if at > now => self.arm(at, at - now),
            // Due now but not started: it waits for a free slot, and the run that frees it schedules again.
            Some(_) => {}
            // Nothing waits: no timer keeps the host (e.g. Node) alive.
            None => self.disarm(),
        }
        if self.background.queue.borrow().is_idle() {
            let resolvers = std::mem::take(&mut *self.waiting.borrow_mut());
            resolvers.iter().for_each(|resolve| drop(resolve.call0(&JsValue::UNDEFINED)));
        }
    }

    /// Makes the timer fire `delay` ms from now (for the batch due `at`), unless it already fires by then.
    fn arm(self: &Rc<Self>, at: i64, delay: i64) {
        if self.timer.borrow().as_ref().is_some_and(|(_, armed)| *armed <= at) {
            return;
        }
        self.disarm();
        let writer = self.clone();
        let fire = Closure::once_into_js(move || {
            writer.timer.borrow_mut().take();
            writer.schedule();
        });
        *self.timer.borrow_mut() = Some((set_timeout(fire.unchecked_ref(), delay as f64), at));
    }

    fn disarm(&self) {
        if let Some((handle, _)) = self.timer.borrow_mut().take() {
            clear_timeout(&handle);
        }
    }

    /// Tells the listeners of the outcome's topic (as `present` words it); a listener that throws does not
    /// stop the others.
    fn report(&self, outcome: &BatchOutcome) {
        let Some((topic, payload)) = (self.present)(outcome) else { return };
        let listeners: Vec<Function> =
            self.listeners.borrow().iter().filter(|(t, _)| *t == topic).map(|(_, h)| h.clone()).collect();
        for handler in listeners {
            let _ = handler.call1(&JsValue::UNDEFINED, &payload);
        }
    }
}
