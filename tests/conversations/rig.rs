//! An engine with a scripted LLM (boundary judgements, extraction replies and update decisions from a
//! script), letter-frequency vectors, a keeping storage and a clock the test moves.

use std::cell::{Cell, RefCell};
use std::collections::VecDeque;
use std::rc::Rc;

use futures_executor::block_on;
use memwasm::core::conversations::prompts::{BOUNDARY_PROMPT, COMPRESS_PROMPT, EPISODE_PROMPT};
use memwasm::core::conversations::{BoundarySettings, MessageInput, MessageOutcome};
use memwasm::core::engine::crud::Page;
use memwasm::core::engine::search::SearchResponse;
use memwasm::core::error::{MemoryError, Result};
use memwasm::core::model::scope::Scope;
use memwasm::core::model::types::MemoryItem;
use memwasm::core::model_traits::LlmRequest;
use memwasm::core::read::{Read, ReadCall, ReadOptions};
use memwasm::core::retrieval::prompts::{JUDGE_PROMPT, REFINE_PROMPT};
use memwasm::core::testing::{Doubles, KeepingStorage, Letters, LlmCall, ScriptedLlm};
use memwasm::core::time::{iso_from_millis, Clock};
use memwasm::MemoryEngine;
use serde_json::{json, Value};

pub type Engine = MemoryEngine<ScriptedLlm, Letters, KeepingStorage>;

pub const MINUTE: i64 = 60_000;
pub const DAY: i64 = 1440;
/// 2025-01-15T10:00:00Z: minute 0 of the test conversations.
pub const START: i64 = 1_736_935_200_000;

/// What the scripted LLM answers.
#[derive(Default)]
pub struct Script {
    /// A new message containing one of these starts a new episode; other boundary calls answer false.
    pub boundary_on: Vec<String>,
    /// The raw reply of every boundary call, instead.
    pub boundary_reply: Option<String>,
    /// Extraction replies, oldest first; once empty, a summary of the episode's first message.
    pub episodes: VecDeque<Value>,
    /// The raw reply of every extraction call, instead (e.g. a broken one).
    pub episode_reply: Option<String>,
    /// Update-decision replies, oldest first; once empty, ADD every new fact.
    pub decisions: VecDeque<Value>,
    /// Agentic judgements, oldest first; once empty, `sufficient: true`.
    pub judgements: VecDeque<Value>,
    /// Agentic refinements, oldest first; once empty, no queries.
    pub refinements: VecDeque<Value>,
}

/// The JSON array that follows `label` in `text`.
pub fn array_after(text: &str, label: &str) -> Vec<Value> {
    let at = text.find(label).map(|at| at + label.len()).unwrap_or(text.len());
    let rest = text[at..].trim_start();
    let value = serde_json::Deserializer::from_str(rest).into_iter::<Value>().next();
    value.and_then(Result::ok).and_then(|v| v.as_array().cloned()).unwrap_or_default()
}

fn answer(script: &RefCell<Script>, request: &LlmRequest<'_>) -> String {
    let mut script = script.borrow_mut();
    if request.system == BOUNDARY_PROMPT {
        if let Some(reply) = &script.boundary_reply {
            return reply.clone();
        }
        let new = request.user.split("New message:").nth(1).unwrap_or_default();
        let hit = script.boundary_on.iter().find(|word| new.contains(word.as_str()));
        return json!({"boundary": hit.is_some(), "reason": hit.map_or("same topic".to_owned(), |w| format!("{w} starts a new topic"))}).to_string();
    }
    if request.system == EPISODE_PROMPT {
        if let Some(reply) = &script.episode_reply {
            return reply.clone();
        }
        if let Some(reply) = script.episodes.pop_front() {
            return reply.to_string();
        }
        let first = request.user.split("Messages:\n").nth(1).and_then(|m| m.lines().next()).unwrap_or_default();
        let content = first.split(": ").skip(1).collect::<Vec<_>>().join(": ");
        return json!({"summary": format!("Chat about {content}"), "event_log": [], "foresight": [], "profiles": []})
            .to_string();
    }
    if request.system == JUDGE_PROMPT {
        let sufficient = json!({"sufficient": true, "reasoning": "enough", "missing_information": []});
        return script.judgements.pop_front().unwrap_or(sufficient).to_string();
    }
    if request.system == REFINE_PROMPT {
        return script.refinements.pop_front().unwrap_or(json!({"queries": []})).to_string();
    }
    if request.system == COMPRESS_PROMPT {
        // "Summary of" the first memory's text, without its `[time] ` prefix.
        let first = request.user.lines().nth(1).unwrap_or_default();
        let text = first.split_once("] ").map_or(first, |(_, text)| text);
        return json!({"summary": format!("Summary of {text}")}).to_string();
    }
    if let Some(reply) = script.decisions.pop_front() {
        return reply.to_string();
    }
    let facts = array_after(request.user, "New facts:");
    let adds: Vec<Value> = facts.iter().map(|fact| json!({"text": fact, "event": "ADD"})).collect();
    json!({"memory": adds}).to_string()
}

/// The engine, its doubles, the script and the clock's hand (milliseconds since the epoch).
pub struct Rig {
    pub doubles: Doubles<ScriptedLlm, Letters, KeepingStorage>,
    pub script: Rc<RefCell<Script>>,
    pub now: Rc<Cell<i64>>,
    pub settings: BoundarySettings,
    pub engine: Engine,
}

impl Rig {
    pub fn new() -> Self {
        Self::with(BoundarySettings::default())
    }

    pub fn with(settings: BoundarySettings) -> Self {
        let script = Rc::new(RefCell::new(Script::default()));
        let llm = ScriptedLlm::responding({
            let script = script.clone();
            move |request| answer(&script, request)
        });
        let doubles = Doubles { llm, embedder: Letters::new(26).folding_case(), storage: KeepingStorage::new() };
        let now = Rc::new(Cell::new(START));
        let engine = Self::configure(doubles.engine(), &now, settings);
        Self { doubles, script, now, settings, engine }
    }

    fn configure(mut engine: Engine, now: &Rc<Cell<i64>>, settings: BoundarySettings) -> Engine {
        engine.set_clock(Clock::from_fn({
            let now = now.clone();
            move || now.get()
        }));
        engine.set_boundary(settings);
        engine
    }

    /// A second engine over the same storage (a reload, or a worker restart), same clock and settings.
    pub fn reopen(&self) -> Engine {
        Self::configure(block_on(self.doubles.open()).unwrap(), &self.now, self.settings)
    }

    /// Sends `message` (JSON) to `engine`, with the clock one second after its `createTime`.
    pub fn add_to(&self, engine: &Engine, message: Value) -> MessageOutcome {
        if let Some(millis) = message["createTime"].as_str().and_then(memwasm::core::time::millis_from_iso) {
            self.now.set(millis + 1000);
        }
        let input: MessageInput = serde_json::from_value(message).unwrap();
        block_on(engine.conversations().add_message(input)).unwrap()
    }

    pub fn add(&self, message: Value) -> MessageOutcome {
        self.add_to(&self.engine, message)
    }

    /// Sends a message of group `g1` at `minute` after the start.
    pub fn send(&self, id: &str, minute: i64, sender: &str, content: &str) -> MessageOutcome {
        self.add(msg(id, minute, sender, content))
    }

    /// The live memories of `scope`, oldest first.
    pub fn memories(&self, scope: Scope) -> Vec<MemoryItem> {
        block_on(self.engine.get_all(&Read::of(scope, 10_000))).unwrap().results
    }

    /// A one-message episode of group `g1` from alice at `minute`, flushed; its session id.
    pub fn episode(&self, id: &str, minute: i64, content: &str) -> String {
        self.send(id, minute, "alice", content);
        let outcome = block_on(self.engine.conversations().flush_group("g1")).unwrap();
        assert_eq!(outcome.episodes.len(), 1, "{outcome:?}");
        outcome.episodes[0].session_id.clone()
    }

    /// `getAll(options)` as the binding runs it (options checked first).
    pub fn get_all(&self, options: Value) -> Result<Page> {
        let read = read_options(options)?.check(ReadCall::GetAll)?;
        block_on(self.engine.get_all(&read))
    }

    /// `search(query, options)` as the binding runs it.
    pub fn search(&self, query: &str, options: Value) -> Result<SearchResponse> {
        let read = read_options(options)?.check(ReadCall::Search)?;
        block_on(self.engine.search(query, &read))
    }

    /// The LLM calls whose system prompt is `system`.
    pub fn calls_to(&self, system: &str) -> Vec<LlmCall> {
        self.doubles.llm.calls().into_iter().filter(|call| call.system == system).collect()
    }
}

/// Read options from JSON; a malformed one is `INVALID_INPUT`, as in the binding.
pub fn read_options(options: Value) -> Result<ReadOptions> {
    serde_json::from_value(options).map_err(|e| MemoryError::InvalidInput(e.to_string()))
}

/// A message of group `g1` from `sender` at `minute` after the start.
pub fn msg(id: &str, minute: i64, sender: &str, content: &str) -> Value {
    json!({"messageId": id, "createTime": time(minute), "sender": sender, "content": content, "groupId": "g1", "groupName": "Launch crew"})
}

/// ISO 8601 time of `minute` after the start.
pub fn time(minute: i64) -> String {
    iso_from_millis(START + minute * MINUTE)
}

pub fn group(id: &str) -> Scope {
    Scope { run_id: Some(id.into()), ..Scope::default() }
}

pub fn user_in(user: &str, group: &str) -> Scope {
    Scope { user_id: Some(user.into()), agent_id: None, run_id: Some(group.into()) }
}

/// Message ids of pending messages.
pub fn pending(outcome: &MessageOutcome) -> Vec<&str> {
    outcome.pending_messages.iter().map(|m| m.message_id.as_str()).collect()
}
