//! Chat models that answer without a network: none at all, or a script.

use std::cell::RefCell;
use std::collections::VecDeque;
use std::fmt::Display;
use std::rc::Rc;

use crate::core::error::{MemoryError, Result};
use crate::core::model_traits::{Llm, LlmRequest};

/// `llm: {provider: "none"}`: not configured, so `add()` stores messages as they are; a call fails.
#[derive(Debug, Clone, Copy, Default)]
pub struct NoLlm;

impl Llm for NoLlm {
    async fn generate(&self, _: &LlmRequest<'_>) -> Result<String> {
        Err(MemoryError::InvalidInput("no LLM".into()))
    }

    fn is_configured(&self) -> bool {
        false
    }
}

/// One call a [`ScriptedLlm`] received.
#[derive(Debug, Clone, PartialEq)]
pub struct LlmCall {
    pub system: String,
    pub user: String,
    /// The name of the reply shape asked for (e.g. `record_facts`); `None` for a free-text call.
    pub reply: Option<&'static str>,
}

type Responder = Box<dyn Fn(&LlmRequest<'_>) -> String>;
type Failure = Box<dyn Fn(&LlmRequest<'_>) -> bool>;

#[derive(Default)]
struct Script {
    queue: RefCell<VecDeque<String>>,
    responder: RefCell<Option<Responder>>,
    failure: RefCell<Option<Failure>>,
    calls: RefCell<Vec<LlmCall>>,
}

/// A chat model that answers each call with the next queued reply; once the queue is empty, with its
/// responder's answer to the request; without a responder, with `{}`. Calls its failure rule picks fail
/// with HTTP 500 instead. It records every call.
/// Clones share the script and the record.
#[derive(Clone, Default)]
pub struct ScriptedLlm(Rc<Script>);

impl ScriptedLlm {
    pub fn new() -> Self {
        Self::default()
    }

    /// A model that answers every call with `respond(request)`.
    pub fn responding(respond: impl Fn(&LlmRequest<'_>) -> String + 'static) -> Self {
        let llm = Self::new();
        llm.respond_with(respond);
        llm
    }

    /// Answers the calls the queue does not with `respond(request)` from now on (replacing any responder).
    pub fn respond_with(&self, respond: impl Fn(&LlmRequest<'_>) -> String + 'static) {
        *self.0.responder.borrow_mut() = Some(Box::new(respond));
    }

    /// Fails the calls `fails(request)` picks (recorded, then `LLM_HTTP` 500) from now on.
    pub fn fail_when(&self, fails: impl Fn(&LlmRequest<'_>) -> bool + 'static) {
        *self.0.failure.borrow_mut() = Some(Box::new(fails));
    }

    /// Queues `reply` (a JSON value or text) for a later call.
    pub fn queue(&self, reply: impl Display) {
        self.0.queue.borrow_mut().push_back(reply.to_string());
    }

    /// Every call so far, oldest first.
    pub fn calls(&self) -> Vec<LlmCall> {
        self.0.calls.borrow().clone()
    }
}

impl Llm for ScriptedLlm {
    async fn generate(&self, request: &LlmRequest<'_>) -> Result<String> {
        let call = LlmCall {
            system: request.system.to_owned(),
            user: request.user.to_owned(),
            reply: request.reply.map(|shape| shape.name),
        };
        self.0.calls.borrow_mut().push(call);
        if self.0.failure.borrow().as_ref().is_some_and(|fails| fails(request)) {
            let error = crate::core::error::UpstreamError::new(Some(500), "scripted failure");
            return Err(MemoryError::Llm(error));
        }
        if let Some(reply) = self.0.queue.borrow_mut().pop_front() {
            return Ok(reply);
        }
        Ok(self.0.responder.borrow().as_ref().map_or_else(|| "{}".to_owned(), |respond| respond(request)))
    }
}
