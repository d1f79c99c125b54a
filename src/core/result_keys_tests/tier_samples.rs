//! Results of the memory tiers, recall, documents, export / import and the conversation API: made by the
//! engine where one call gives them whole, else struct literals (a dream, a compression and an extracted
//! episode each need a scripted conversation) that name every field and set every optional one.

use futures_executor::block_on;
use serde_json::{json, Map, Value};

use super::memory_samples::{engine, filled_event, filled_item, options, read, scope, scoped, warning};
use super::{Declared::Method, Declared::Type, Sample};
use crate::core::conversations::{
    Cause, CompressOutcome, CompressedSession, DeleteOutcome, EpisodeReport, ExtractedMemory, MessageOutcome,
    MetaPatch, PendingMessage, Role, Status,
};
use crate::core::documents::{DiscardReason, IngestResult, IngestedChunk};
use crate::core::engine::recall::RecallResult;
use crate::core::lifecycle::decay::DecayPlan;
use crate::core::model::scope::Scope;
use crate::core::model::types::{MemoryType, Message};
use crate::core::read::ReadCall;
use crate::core::tiers::{ContextResult, ContextWindow, CoreProfile, DiaryEntry, DreamResult, JournalDay};

fn metadata() -> Map<String, Value> {
    json!({"description": "a support chat"}).as_object().unwrap().clone()
}

/// A message outcome whose every list holds one entry with every optional field set.
fn message_outcome() -> MessageOutcome {
    let event = filled_event(crate::core::model::types::MemoryEvent {
        id: "m1".into(),
        event: crate::core::model::types::EventKind::Add,
        memory: "Alice flies to Rome on Friday".into(),
        old_memory: None,
        new_memory: None,
        metadata: None,
    });
    let episode = EpisodeReport {
        session_id: "s1".into(),
        cause: Cause::Llm,
        reason: Some("the topic changed".into()),
        start_time: "2026-01-01T10:00:00.000Z".into(),
        end_time: "2026-01-01T10:05:00.000Z".into(),
        message_ids: vec!["1".into()],
    };
    let pending = PendingMessage {
        message_id: "2".into(),
        create_time: "2026-01-01T11:00:00.000Z".into(),
        sender: "alice".into(),
        sender_name: Some("Alice".into()),
        role: Some(Role::User),
        content: "And a hotel?".into(),
        refer_list: vec!["1".into()],
    };
    MessageOutcome {
        status: Status::Extracted,
        group_id: "g1".into(),
        duplicate: false,
        memories: vec![ExtractedMemory { event, memory_type: MemoryType::EventLog }],
        count: 1,
        episodes: vec![episode],
        pending_messages: vec![pending],
        warnings: vec![warning()],
    }
}

fn compress_outcome() -> CompressOutcome {
    let session = CompressedSession {
        session_id: "s1".into(),
        summary_id: "m9".into(),
        summary: "Alice planned a trip".into(),
        memory_ids: vec!["m1".into()],
        start_time: "2026-01-01T10:00:00.000Z".into(),
        end_time: "2026-01-01T10:05:00.000Z".into(),
    };
    CompressOutcome { sessions: 3, compressed: vec![session], warnings: vec![warning()] }
}

fn profile() -> CoreProfile {
    CoreProfile { markdown: "# Alice\n- likes teal".into(), updated_at: "2026-01-02T00:00:00.000Z".into() }
}

fn dream() -> DreamResult {
    let event = filled_event(
        block_on(engine().0.add(&json!("Alice likes jazz"), &options(scoped(json!({"infer": false})))))
            .unwrap()
            .results
            .remove(0),
    );
    DreamResult {
        dreamed: true,
        journals: vec!["2026-01-01".into()],
        profile: Some(profile()),
        results: vec![event],
        warnings: vec![warning()],
        reason: "Alice's taste in music".into(),
    }
}

/// The results of recall, the tiers, documents, export / import and the conversation API.
pub fn samples() -> Vec<Sample> {
    let (engine, _) = engine();
    let recalled = block_on(engine.recall("teal", &read(ReadCall::Recall, json!({})))).unwrap();
    let RecallResult { memories, total_tokens, budget_used, text, method, warnings: _ } = recalled;
    let memories = memories.into_iter().map(filled_item).collect();
    let recalled = RecallResult { memories, total_tokens, budget_used, text, method, warnings: vec![warning()] };
    let mut injection = block_on(engine.tiers().format_for_injection(&scope(), 500)).unwrap();
    injection.memories = injection.memories.into_iter().map(filled_item).collect();
    let window = ContextWindow { scope: scope(), max_tokens: 200, keep_last: 2 };
    let turns = vec![Message {
        id: Some("m1".into()),
        conversation_id: Some("c1".into()),
        created_at: Some("2024-05-01T10:00:00Z".into()),
        name: Some("Alice".into()),
        ..Message::new("user", "Hi, I am Alice")
    }];
    let ContextResult { messages, summary, summarized, total_tokens, warnings: _ } =
        block_on(engine.tiers().context_push(&window, turns)).unwrap();
    let summary = summary.or(Some("Alice said hello".into()));
    let context = ContextResult { messages, summary, summarized, total_tokens, warnings: vec![warning()] };
    let paragraph = "Alice likes teal and sails every summer on the lake near her home.";
    let text = format!("{paragraph}\n\n{paragraph}"); // the second is a DUPLICATE: an id and a reason
    let ingested = block_on(engine.documents().ingest(&text, &options(scoped(json!({"sessionId": "s1"}))))).unwrap();
    let IngestResult { chunks, stored, discarded } = ingested;
    let chunks = chunks.into_iter().map(|chunk| {
        let IngestedChunk { text, tokens, importance, memory_type, id, stored, reason } = chunk;
        let (id, reason) = (id.or(Some("m1".into())), reason.or(Some(DiscardReason::Duplicate)));
        IngestedChunk { text, tokens, importance, memory_type, id, stored, reason }
    });
    let ingested = IngestResult { chunks: chunks.collect(), stored, discarded };
    let jsonl = block_on(engine.export(Scope::default())).unwrap();
    let mut imported = block_on(self::engine().0.import(&jsonl)).unwrap();
    imported.warnings.push(warning());
    let mut reembedded = block_on(engine.reembed()).unwrap();
    reembedded.warnings.push(warning());
    let decayed = block_on(engine.lifecycle().decay(&scope(), DecayPlan::default())).unwrap();
    let conversations = engine.conversations();
    let meta = json!({
        "version": "1", "scene": "group_chat", "sceneDesc": metadata(), "name": "Trip", "description": "planning",
        "groupId": "g1", "createdAt": "2026-01-01T00:00:00Z", "defaultTimezone": "Europe/Lisbon", "tags": ["travel"],
        "userDetails": {"alice": {"fullName": "Alice Lee", "role": "user", "customRole": "lead", "extra": metadata()}},
    });
    let saved = block_on(conversations.save_conversation_meta(options(meta))).unwrap();
    let got = block_on(conversations.conversation_meta(Some("g1"))).unwrap();
    let patch = MetaPatch::parse(json!({"groupId": "g1", "name": "Rome"})).unwrap();
    let updated = block_on(conversations.update_conversation_meta(patch)).unwrap();
    let filter = options(json!({"userId": "alice", "groupId": "run-1"}));
    let DeleteOutcome { count, left, filters } = block_on(conversations.delete_memories(&filter)).unwrap();
    let deleted = DeleteOutcome { count, left: left.max(1), filters };
    let journal = JournalDay {
        date: "2026-01-01".into(),
        turns: 2,
        markdown: "## 10:00\n- user: hi".into(),
        hash: "0cc175b9c0f1b6a831c399e269772661".into(),
        consolidated: true,
    };
    let dream = dream();
    let diary = DiaryEntry {
        at: "2026-01-02T03:00:00.000Z".into(),
        journals: dream.journals.clone(),
        reason: dream.reason.clone(),
        profile_changed: true,
        events: dream.results.clone(),
    };
    let change = json!({"scope": scope(), "results": dream.results, "warnings": dream.warnings});
    vec![
        Sample::of(Method("recall"), &recalled),
        Sample::of(Method("formatForInjection"), &injection),
        Sample::of(Method("push"), &context),
        Sample::of(Method("ingest"), &ingested),
        Sample::of(Method("importMemories"), &imported),
        Sample::of(Method("reembed"), &reembedded),
        Sample::of(Method("decay"), &decayed),
        Sample::of(Method("saveConversationMeta"), &saved),
        Sample::of(Method("getConversationMeta"), &got),
        Sample::of(Method("updateConversationMeta"), &updated),
        Sample::of(Method("deleteMemories"), &deleted),
        Sample::of(Method("addMessage"), &message_outcome()),
        Sample::of(Method("flushGroup"), &message_outcome()),
        Sample::of(Method("compress"), &compress_outcome()),
        Sample::of(Method("journals"), &vec![journal]),
        Sample::of(Method("dream"), &dream),
        Sample::of(Method("coreProfile"), &profile()),
        Sample::of(Method("dreamDiary"), &vec![diary]),
        Sample::wrapped(Type("BackgroundChange"), "{scope: Scope, results: Vec<MemoryEvent>, warnings}", change),
    ]
}
