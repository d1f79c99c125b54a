//! `add()`: one extraction call, one batched embedding, top-5 neighbours per fact, one update
//! decision for all facts, re-embedding only rewritten texts, one atomic commit.

use std::collections::{HashMap, HashSet};

use serde_json::Value;

pub(crate) use super::destination::Destination;
use super::destination::{AddCall, AddRequest};
use super::memory::MemoryEngine;
use crate::core::error::{MemoryError, Result};
use crate::core::filter::Filter;
use crate::core::identity::{content_hash, new_id};
use crate::core::llm_json::{parse_decisions, parse_extraction};
use crate::core::message_fields::ACTOR_KEY;
use crate::core::model::scope::Scope;
use crate::core::model::types::{
    AddResult, AddWarning, EventKind, MemoryEvent, MemoryItem, Message, Metadata, StoredMemory, WarningCode,
};
use crate::core::model_traits::{Embedder, Llm, LlmRequest};
use crate::core::pipeline_options::{parse_messages, require_content, AddOptions};
use crate::core::plan::{plan, Op};
use crate::core::prompts::{decision_input, extraction_input};
use crate::core::read::parse_filter;
use crate::core::reply_schema;
use crate::core::storage::{Changeset, Storage};
use crate::core::vector_store::VectorStore;

/// Similar memories fetched per fact for the update decision.
pub(crate) const NEIGHBOURS_PER_FACT: usize = 5;

/// `add()` stopping before it writes anything, with a `code` warning caused by `why`.
pub(crate) fn stopped(mut result: AddResult, code: WarningCode, why: &MemoryError) -> (AddResult, Changeset) {
    result.warnings.push(AddWarning::caused_by(code, why));
    (result, Changeset::default())
}

/// Appends `found` to `shown`, skipping memories already there.
pub(crate) fn extend_unique(shown: &mut Vec<StoredMemory>, found: Vec<StoredMemory>) {
    for memory in found {
        if !shown.iter().any(|m| m.item.id == memory.item.id) {
            shown.push(memory);
        }
    }
}

/// Extracted facts, and (fact, who said it) where the model tells.
pub(crate) type Extracted = (Vec<String>, Vec<(String, String)>);

/// Gives each new memory of `changes` the speaker its fact was attributed to (unless the caller set one).
pub(crate) fn attribute(changes: &mut Changeset, attributions: &[(String, String)]) {
    for memory in &mut changes.upserts {
        let said = attributions.iter().find(|(text, _)| *text == memory.item.memory);
        if let Some((_, who)) = said.filter(|_| memory.item.lifecycle.attributed_to.is_none()) {
            memory.item.lifecycle.attributed_to = Some(who.clone());
        }
    }
}

/// Facts and their unit vectors (`None` when no embedder is configured); texts whose embedding failed are absent.
pub(crate) type Embedded = HashMap<String, Option<Vec<f32>>>;

pub(crate) fn event(kind: EventKind, item: &MemoryItem, old: Option<String>, new: Option<String>) -> MemoryEvent {
    let metadata = (kind != EventKind::None).then(|| (*item.metadata).clone());
    MemoryEvent {
        id: item.id.clone(),
        event: kind,
        memory: item.memory.clone(),
        old_memory: old,
        new_memory: new,
        metadata,
    }
}

impl<L: Llm, E: Embedder, S: Storage, V: VectorStore + Default> MemoryEngine<L, E, S, V> {
    /// Extracts facts from `messages` and merges them into the caller's memories.
    pub async fn add(&self, messages: &Value, options: &AddOptions) -> Result<AddResult> {
        let (scope, filters) = options.scope_and_filters()?;
        let messages = {
            let parsed = parse_messages(messages)?;
            require_content(messages, &parsed)?;
            parsed
        };
        let write = options.lifecycle().check(self.now_ms())?;
        options.idempotency_key()?;
        let infer = options.infer.unwrap_or(self.llm.is_configured());
        let request = AddRequest { messages: &messages, options, scope: &scope, infer };
        // With a key, the scope's turn is taken before the key is looked up and held until the commit, so
        // that two adds with one key at once run once (the other replays).
        let keyed_turn = match options.idempotency_key {
            Some(_) => Some(self.decision_turn(&scope).await?),
            None => None,
        };
        if let Some(replayed) = self.replayed(request).await? {
            return Ok(replayed);
        }
        self.load_scope(&scope).await?;
        self.retry_unsettled();
        self.settle_quietly().await;
        let filter = parse_filter(&filters)?;
        let metadata = options.stored_metadata()?;
        let to = Destination { centroid: self.centroid(&scope), scope: scope.clone(), metadata, write };
        let result = AddResult::default();
        if infer && !self.llm.is_configured() {
            return Err(MemoryError::InvalidInput("infer: true needs an LLM, and llm.provider is \"none\"".into()));
        }
        if !infer {
            return self.add_verbatim(request, &to, result).await;
        }
        let _turn = match keyed_turn {
            Some(turn) => turn,
            None => self.decision_turn(&scope).await?, // held until the commit (see `decision_turn`)
        };
        let pipeline = options.pipeline.unwrap_or(self.pipeline);
        let call = AddCall { messages: &messages, to: &to, filter: &filter, options };
        let by_feature = self.extensions.hooks().find_map(|hooks| hooks.add_pipeline(self, pipeline, call));
        let vector_path = async {
            match by_feature {
                Some(inferred) => inferred.await,
                None => self.infer(&messages, &to, &filter, options, result).await,
            }
        };
        let steps: Vec<_> = self.extensions.hooks().filter_map(|hooks| hooks.add_step(self, &messages)).collect();
        let features = async {
            let mut staged = Vec::with_capacity(steps.len());
            for step in steps {
                staged.push(step.await);
            }
            staged
        };
        let (outcome, staged) = futures_util::future::join(vector_path, features).await;
        let (mut result, mut changes) = outcome?;
        let _commit = self.lock_add_commit(&scope, &mut result, &mut changes).await;
        for stage in staged {
            stage(&scope, &mut result, &mut changes);
        }
        self.trim_recorded(&scope, &mut result, &mut changes);
        self.extensions.hooks().for_each(|hooks| hooks.before_add_commit(self, request, &result, &mut changes));
        self.commit(changes).await?;
        Ok(result)
    }

    /// The result of an earlier `add()` that `request` repeats, when a feature kept one (`add_replay`).
    async fn replayed(&self, request: AddRequest<'_>) -> Result<Option<AddResult>> {
        for hooks in self.extensions.hooks() {
            if let Some(replay) = hooks.add_replay(self, request) {
                if let Some(result) = replay.await? {
                    return Ok(Some(result));
                }
            }
        }
        Ok(None)
    }

    /// The vector path of an inferring `add()` by the exact pipeline: extraction, embedding, neighbours,
    /// decision. Returns the events and the writes, not yet committed.
    async fn infer(
        &self,
        messages: &[Message],
        to: &Destination,
        filter: &Option<Filter>,
        options: &AddOptions,
        result: AddResult,
    ) -> Result<(AddResult, Changeset)> {
        let (facts, attributions) = match self.extract(messages, options).await {
            Ok(parsed) => parsed,
            Err(why) => return Ok(stopped(result, WarningCode::ExtractionFailed, &why)),
        };
        let keep = |item: &MemoryItem| filter.as_ref().is_none_or(|f| f.matches(item));
        let (result, mut changes) = self.merge_facts(facts, to, &keep, result).await?;
        attribute(&mut changes, &attributions);
        Ok((result, changes))
    }

    /// The extraction call: the facts in `messages`, and who said each (where the model tells).
    pub(crate) async fn extract(&self, messages: &[Message], options: &AddOptions) -> Result<Extracted> {
        let system =
            options.prompt.as_deref().filter(|p| !p.trim().is_empty()).unwrap_or(&self.prompts.fact_extraction);
        let (input, shape) = (extraction_input(messages), reply_schema::facts());
        let reply = self.llm.generate(&LlmRequest::json(system, &input, &shape)).await?;
        parse_extraction(&reply)
    }

    /// The update decision over `facts` and the `shown` memories: its operations and the planner's
    /// warnings, or the error of the call or of its reply.
    pub(crate) async fn decide(
        &self,
        facts: &[String],
        shown: &[StoredMemory],
        scope: &Scope,
    ) -> Result<(Vec<Op>, Vec<AddWarning>)> {
        let existing: Vec<(String, String)> =
            shown.iter().enumerate().map(|(i, m)| (i.to_string(), m.item.memory.clone())).collect();
        let (input, shape) = (decision_input(&existing, facts), reply_schema::decisions());
        let reply = self.llm.generate(&LlmRequest::json(&self.prompts.update_decision, &input, &shape)).await?;
        let decisions = parse_decisions(&reply)?;
        let now = self.now_iso();
        let live_in_scope = |item: &MemoryItem| scope.contains(&item.scope) && item.lifecycle.is_live(&now);
        let in_scope_with_hash = |hash: &str| self.index.borrow().find_by_hash(hash, &live_in_scope).cloned();
        Ok(plan(decisions, shown, in_scope_with_hash))
    }

    /// Merges new `facts` into `to`'s scope as `add()` does: exact duplicates become NONE events, the rest are
    /// embedded in one batch, shown with their live neighbours in the scope that pass `keep`, and decided on in
    /// one LLM call. Returns the events and the writes, not yet committed.
    pub(crate) async fn merge_facts(
        &self,
        facts: Vec<String>,
        to: &Destination,
        keep: &dyn Fn(&MemoryItem) -> bool,
        mut result: AddResult,
    ) -> Result<(AddResult, Changeset)> {
        let scope = &to.scope;
        let fresh = self.drop_exact_duplicates(facts, scope, &mut result);
        let embedded = self.embed_all(&fresh, &mut result.warnings).await?;
        let facts: Vec<String> = fresh.into_iter().filter(|fact| embedded.contains_key(fact)).collect();
        if facts.is_empty() {
            return Ok((result, Changeset::default()));
        }

        let now = self.now_iso();
        let in_scope = |item: &MemoryItem| scope.contains(&item.scope) && item.lifecycle.is_live(&now) && keep(item);
        let shown = self.neighbours(&facts, &embedded, NEIGHBOURS_PER_FACT, scope, &in_scope).await?;
        let (ops, warnings) = match self.decide(&facts, &shown, scope).await {
            Ok(decided) => decided,
            Err(why) => return Ok(stopped(result, WarningCode::DecisionFailed, &why)),
        };
        result.warnings.extend(warnings);
        self.apply(ops, embedded, to, result, false).await
    }

    /// `infer: false`: each message (its role, and who said it as `actor_id`) becomes a memory as it is;
    /// one the embedder fails on is stored keyword-only (`NOT_EMBEDDED`) and embedded later.
    async fn add_verbatim(
        &self,
        request: AddRequest<'_>,
        to: &Destination,
        mut result: AddResult,
    ) -> Result<AddResult> {
        let said: Vec<&Message> = request.messages.iter().filter(|m| m.role != "system").collect();
        let scope = &to.scope;
        // Stored as given, as mem0 does: no exact-duplicate check (a text may come back with new metadata).
        let fresh: Vec<String> = said.iter().map(|m| m.content.clone()).collect();
        let embedded = self.embed_or_keyword_only(&fresh, &mut result.warnings).await?;
        let mut changes = Changeset::default();
        let stamps = self.clock.turn_stamps(fresh.len());
        for (nth, (text, message)) in fresh.iter().zip(&said).enumerate() {
            let vector = embedded.get(text).cloned().flatten();
            let mut metadata = to.metadata.clone();
            metadata.insert("role".into(), Value::String(message.role.clone()));
            if let Some(name) = &message.name {
                metadata.insert(ACTOR_KEY.into(), Value::String(name.clone()));
            }
            if let Some(added) = self.stage_add(text, vector, to, metadata, &mut changes, &mut result) {
                in_order(&mut changes, stamps.saturating_add(nth as i64));
                result.results.push(added);
            }
        }
        self.note_unsettled(&mut changes, &fresh);
        self.trim(scope, &mut changes);
        self.extensions.hooks().for_each(|hooks| hooks.before_add_commit(self, request, &result, &mut changes));
        self.commit(changes).await?;
        Ok(result)
    }

    /// Turns facts already stored verbatim in scope into NONE events; returns the rest, de-duplicated.
    pub(crate) fn drop_exact_duplicates(
        &self,
        texts: Vec<String>,
        scope: &Scope,
        result: &mut AddResult,
    ) -> Vec<String> {
        let now = self.now_iso();
        let index = self.index.borrow();
        let mut fresh: Vec<String> = Vec::new();
        for text in texts {
            let text = text.trim().to_owned();
            if text.is_empty() || fresh.contains(&text) {
                continue;
            }
            let live = |item: &MemoryItem| scope.contains(&item.scope) && item.lifecycle.is_live(&now);
            match index.find_by_hash(&content_hash(&text), &live) {
                Some(existing) => result.record(event(EventKind::None, &existing.item, None, None)),
                None => fresh.push(text),
            }
        }
        fresh
    }

    /// The `limit` nearest memories of every text, de-duplicated, in order of first appearance: by its vector
    /// in `embedded`, or by keywords for a text that has none there.
    pub(crate) async fn neighbours(
        &self,
        texts: &[String],
        embedded: &Embedded,
        limit: usize,
        scope: &Scope,
        keep: &dyn Fn(&MemoryItem) -> bool,
    ) -> Result<Vec<StoredMemory>> {
        let mut shown: Vec<StoredMemory> = Vec::new();
        for text in texts {
            let vector = embedded.get(text).and_then(Option::as_deref);
            extend_unique(&mut shown, self.similar(text, vector, limit, scope, keep).await?);
        }
        Ok(shown)
    }

    /// Embeds rewritten texts (one batch), then stages every operation, to be committed at once. With
    /// `may_defer` (the fast pipeline) and a host that settles vectors later, rewritten texts are staged
    /// without a vector instead, and noted (see `engine::deferred_vectors`).
    pub(crate) async fn apply(
        &self,
        ops: Vec<Op>,
        mut embedded: Embedded,
        to: &Destination,
        mut result: AddResult,
        may_defer: bool,
    ) -> Result<(AddResult, Changeset)> {
        let mut seen = HashSet::new();
        let rewritten: Vec<String> = ops
            .iter()
            .filter_map(|op| match op {
                Op::Add { text } | Op::Update { text, .. } if !embedded.contains_key(text) => Some(text.clone()),
                _ => None,
            })
            .filter(|text| seen.insert(text.clone()))
            .collect();
        let defer = may_defer && !rewritten.is_empty() && self.may_defer_vectors();
        match defer {
            true => embedded.extend(rewritten.iter().map(|text| (text.clone(), None))),
            false => embedded.extend(self.embed_all(&rewritten, &mut result.warnings).await?),
        }
        let mut changes = self.stage(ops, &embedded, to, &mut result);
        if defer {
            self.note_unsettled(&mut changes, &rewritten);
        }
        Ok((result, changes))
    }

    /// The writes and events of `ops`; ops whose text has no vector, or whose memory vanished meanwhile, are skipped.
    fn stage(&self, ops: Vec<Op>, embedded: &Embedded, to: &Destination, result: &mut AddResult) -> Changeset {
        let mut changes = Changeset::default();
        for op in ops {
            let target = match &op {
                Op::Update { target, .. } | Op::Delete { target } | Op::Keep { target } => Some(&target.item.id),
                Op::Add { .. } => None,
            };
            if target.is_some_and(|id| self.index.borrow().get(id).is_none()) {
                let why = "memory was deleted while add() ran";
                result.warnings.push(AddWarning::new(WarningCode::UnknownMemoryId, why));
                continue;
            }
            match op {
                Op::Add { text } => {
                    if let Some(vector) = embedded.get(&text) {
                        let metadata = to.metadata.clone();
                        if let Some(added) = self.stage_add(&text, vector.clone(), to, metadata, &mut changes, result) {
                            result.results.push(added);
                        }
                    }
                }
                Op::Update { mut target, text } => {
                    let Some(vector) = embedded.get(&text) else { continue };
                    let old = std::mem::replace(&mut target.item.memory, text.clone());
                    target.item.hash = content_hash(&text);
                    target.item.updated_at = self.now_iso();
                    target.embedding = vector.clone();
                    let record = self.record(&target.item, EventKind::Update, Some(old.clone()), Some(text.clone()));
                    changes.history.push(record);
                    result.record(event(EventKind::Update, &target.item, Some(old), Some(text)));
                    changes.upserts.push(target);
                }
                Op::Delete { target } => {
                    let old = target.item.memory.clone();
                    changes.history.push(self.record(&target.item, EventKind::Delete, Some(old.clone()), None));
                    result.record(event(EventKind::Delete, &target.item, Some(old), None));
                    changes.deletes.push(target.item.id);
                }
                Op::Keep { target } => result.record(event(EventKind::None, &target.item, None, None)),
            }
        }
        changes
    }

    /// Adds a new memory to `changes` and returns its ADD event; `None` (with a `LOW_IMPORTANCE` warning)
    /// when it is below `importance.minToStore` and not pinned.
    pub(crate) fn stage_add(
        &self,
        text: &str,
        vector: Option<Vec<f32>>,
        to: &Destination,
        metadata: Metadata,
        changes: &mut Changeset,
        result: &mut AddResult,
    ) -> Option<MemoryEvent> {
        let lifecycle = to.write.for_new(text, vector.as_deref(), to.centroid.as_deref());
        if !lifecycle.pinned && lifecycle.importance < self.lifecycle.min_to_store {
            let why = format!("\"{text}\" has importance {:.2}, below minToStore", lifecycle.importance);
            result.warnings.push(AddWarning::new(WarningCode::LowImportance, why));
            return None;
        }
        let now = self.now_iso();
        let item = MemoryItem {
            id: new_id(),
            memory: text.to_owned(),
            hash: content_hash(text),
            metadata: metadata.into(),
            score: None,
            fused_score: None,
            created_at: now.clone(),
            updated_at: now,
            scope: to.scope.clone(),
            lifecycle,
        };
        changes.history.push(self.record(&item, EventKind::Add, None, Some(text.to_owned())));
        let added = event(EventKind::Add, &item, None, Some(text.to_owned()));
        changes.upserts.push(StoredMemory { item, embedding: vector });
        Some(added)
    }
}

/// Dates the memory just staged in `changes` (and its history record) at `millis`: the turns of one call
/// get successive milliseconds, so the order they were said in survives a reload (keyword search reads a
/// turn with the one before it).
fn in_order(changes: &mut Changeset, millis: i64) {
    let at = crate::core::time::iso_from_millis(millis);
    if let Some(stored) = changes.upserts.last_mut() {
        stored.item.created_at.clone_from(&at);
        stored.item.updated_at.clone_from(&at);
    }
    if let Some(record) = changes.history.last_mut() {
        record.timestamp = at;
    }
}
