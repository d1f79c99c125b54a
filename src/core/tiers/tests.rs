//! The tiers over an engine with a scripted model, a movable clock and a storage that survives reopening.

mod context_budget;
mod dream;

use std::cell::Cell;
use std::rc::Rc;

use futures_executor::block_on;
use serde_json::json;

use super::*;
use crate::core::engine::memory::MemoryEngine;
use crate::core::model::types::{Message, WarningCode};
use crate::core::model_traits::LlmRequest;
use crate::core::testing::{Doubles, KeepingStorage, Letters, ScriptedLlm};
use crate::core::time::{millis_from_iso, Clock};

type Engine = MemoryEngine<ScriptedLlm, Letters, KeepingStorage>;

/// A test's doubles and its clock (ms since the epoch), shared by every engine it opens.
struct World {
    doubles: Doubles<ScriptedLlm, Letters, KeepingStorage>,
    now: Rc<Cell<i64>>,
}

impl World {
    fn new(responder: impl Fn(&LlmRequest<'_>) -> String + 'static) -> Self {
        let (llm, embedder) = (ScriptedLlm::responding(responder), Letters::new(26));
        let doubles = Doubles { llm, embedder, storage: KeepingStorage::new() };
        World { doubles, now: Rc::new(Cell::new(millis_from_iso("2026-11-23T09:00:00Z").unwrap())) }
    }

    fn engine(&self) -> Engine {
        let mut engine = block_on(self.doubles.open()).unwrap();
        let now = self.now.clone();
        engine.set_clock(Clock::from_fn(move || now.get()));
        engine
    }

    fn advance(&self, ms: i64) {
        self.now.set(self.now.get() + ms);
    }

    fn calls(&self, reply: &str) -> usize {
        self.doubles
            .llm
            .calls()
            .iter()
            .filter(|c| c.reply == Some(reply) || (reply.is_empty() && c.reply.is_none()))
            .count()
    }
}

fn alice() -> Scope {
    Scope { user_id: Some("alice".into()), ..Scope::default() }
}

fn turn(role: &str, text: &str) -> Message {
    Message::new(role, text)
}

/// Summaries name how many lines they were given, so each is distinct and short.
fn summarizer(request: &LlmRequest<'_>) -> String {
    let lines = request.user.lines().filter(|l| l.starts_with("user:") || l.starts_with("assistant:")).count();
    format!("The user talked about travel plans ({lines} turns folded).")
}

#[test]
fn a_200_turn_conversation_stays_within_budget_with_one_incremental_summary_per_overflow() {
    let world = World::new(summarizer);
    let engine = world.engine();
    let window = ContextWindow { scope: alice(), max_tokens: 300, keep_last: 6 };
    let (mut overflows, mut previous): (usize, Option<String>) = (0, None);
    for i in 0..200 {
        let role = if i % 2 == 0 { "user" } else { "assistant" };
        let text = format!("Turn {i}: we should visit Lisbon and Porto in spring, number {i}.");
        let result = block_on(engine.tiers().context_push(&window, vec![turn(role, &text)])).unwrap();
        let counted: usize = result.messages.iter().map(|m| engine.tiers().message_tokens(m)).sum();
        assert_eq!(result.total_tokens, counted);
        assert!(result.total_tokens <= 300, "turn {i}: {} tokens", result.total_tokens);
        assert!(result.messages.last().unwrap().content.contains(&format!("Turn {i}:")), "the newest turn is kept");
        if result.summarized > 0 {
            overflows += 1;
            let prompt = world.doubles.llm.calls().last().unwrap().user.clone();
            let previous_summary = previous.clone().unwrap_or_else(|| "(none)".into());
            assert!(prompt.contains(&previous_summary), "turn {i}: the prompt carries the previous summary");
            assert!(!prompt.contains("Turn 0:") || overflows == 1, "turn {i}: older turns are never sent again");
            assert_eq!(result.messages[0], summary_message(result.summary.as_deref().unwrap()));
            assert!(result.messages.len() <= window.keep_last + 1);
        }
        previous = result.summary.clone();
    }
    assert!(overflows >= 10, "{overflows} overflows");
    assert_eq!(world.calls(""), overflows, "one summary call per overflow, none otherwise");
    let state = block_on(engine.tiers().context_state(&alice())).unwrap();
    assert_eq!(state.summarized + state.messages.len(), 200, "every turn is either summarised or kept");

    let reloaded = world.engine();
    let result = block_on(reloaded.tiers().context_push(&window, vec![turn("user", "after the reload")])).unwrap();
    assert_eq!(result.summary, previous, "a reload continues the stored summary");
}

#[test]
fn the_running_summary_is_told_who_said_each_turn() {
    let world = World::new(summarizer);
    let engine = world.engine();
    let window = ContextWindow { scope: alice(), max_tokens: 40, keep_last: 1 };
    let said = |name: &str, text: &str| Message { name: Some(name.into()), ..turn("user", text) };
    let (vegan, steak) = ("I am vegan these days and cook lentils every evening", "I love a good steak on Sundays");
    let turns = vec![said("Alice", vegan), said("Bob", steak), turn("user", "Noted, both of you, thanks a lot")];
    for turn in turns {
        block_on(engine.tiers().context_push(&window, vec![turn])).unwrap();
    }
    let prompt = world.doubles.llm.calls().last().unwrap().user.clone();
    assert!(prompt.contains(&format!("user (Alice): {vegan}\nuser (Bob): {steak}\n")), "{prompt}");
}

#[test]
fn a_turns_name_counts_towards_the_window() {
    let world = World::new(summarizer);
    let engine = world.engine();
    let window = ContextWindow { scope: alice(), max_tokens: 40, keep_last: 1 };
    let text = format!("{}and then Braga in summer", "we should visit Lisbon and Porto in spring ".repeat(3));
    let text = text.as_str();
    let plain = engine.tiers().message_tokens(&turn("user", text));
    let named = Message { name: Some("Maria Fernanda da Silva Albuquerque Ribeiro".into()), ..turn("user", text) };
    let tokens = engine.tiers().message_tokens(&named);
    // The chat format sends the name with the message: its tokens and one more.
    assert_eq!(tokens, plain + engine.count_tokens(named.name.as_deref().unwrap()) + 1);
    assert!(plain <= 40 && tokens > 40, "fits without its name ({plain}), not with it ({tokens})");
    let result = block_on(engine.tiers().context_push(&window, vec![named])).unwrap();
    assert!(result.total_tokens <= 40, "{} tokens", result.total_tokens);
    assert_eq!(result.warnings.iter().map(|w| w.code).collect::<Vec<_>>(), [WarningCode::TurnTruncated]);
    assert_eq!(result.messages[0].name.as_deref(), Some("Maria Fernanda da Silva Albuquerque Ribeiro"));
    // A name longer than the whole window is dropped before the text is cut to nothing.
    let huge = Message { name: Some("Maria ".repeat(40).trim().into()), ..turn("user", "hello there") };
    let result = block_on(engine.tiers().context_push(&window, vec![huge])).unwrap();
    assert!(result.total_tokens <= 40, "{} tokens", result.total_tokens);
    assert_eq!(
        (result.messages.last().unwrap().name.as_deref(), result.messages.last().unwrap().content.as_str()),
        (None, "hello there")
    );
}

#[test]
fn a_failed_summary_rejects_and_changes_nothing() {
    let world = World::new(summarizer);
    world.doubles.llm.fail_when(|_| true);
    let engine = world.engine();
    let window = ContextWindow { scope: alice(), max_tokens: 40, keep_last: 1 };
    block_on(engine.tiers().context_push(&window, vec![turn("user", "short")])).unwrap();
    let long = "a long message about many things ".repeat(8);
    let error = block_on(engine.tiers().context_push(&window, vec![turn("user", &long)])).unwrap_err();
    assert_eq!(error.code(), "LLM_HTTP");
    assert_eq!(block_on(engine.tiers().context_state(&alice())).unwrap().messages.len(), 1, "nothing was written");
    let bad = block_on(engine.tiers().context_push(&window, vec![turn(" ", "x")])).unwrap_err();
    assert_eq!(bad.code(), "INVALID_INPUT");
}

#[test]
fn injection_never_exceeds_the_budget_puts_the_profile_and_pinned_first_and_escapes_tags() {
    let world = World::new(|_| "{}".into());
    let engine = world.engine();
    let profile = CoreProfile { markdown: "# Alice\n- lives in </memory> Lisbon".into(), updated_at: "x".into() };
    let write = crate::core::side_records::SideWrite::put(CORE_PROFILE, &alice().key(), json!(profile));
    block_on(engine.write_side(vec![write])).unwrap();
    let store = |text: &str, mut options: serde_json::Value| {
        options["userId"] = json!("alice");
        options["infer"] = json!(false);
        block_on(engine.add(&json!(text), &serde_json::from_value(options).unwrap())).unwrap();
    };
    store("Likes green tea", json!({"importance": 0.9}));
    store("Owns a <script>cat</script>", json!({"importance": 0.5}));
    store("Allergic to peanuts", json!({"importance": 0.3, "pinned": true}));
    store("Said hello once", json!({"importance": 0.1}));
    let full = block_on(engine.tiers().format_for_injection(&alice(), 1000)).unwrap();
    assert!(full.text.starts_with("<memory>\n# Alice\n- lives in &lt;/memory&gt; Lisbon\n"), "{}", full.text);
    assert_eq!(full.text.matches("</memory>").count(), 1);
    assert!(full.text.contains("&lt;script&gt;cat&lt;/script&gt;"));
    let order: Vec<&str> = full.memories.iter().map(|m| m.memory.as_str()).collect();
    assert_eq!(order, ["Allergic to peanuts", "Likes green tea", "Owns a <script>cat</script>"], "below 0.2 left out");
    assert!(full.profile);
    for budget in 1..120 {
        let cut = block_on(engine.tiers().format_for_injection(&alice(), budget)).unwrap();
        assert!(cut.total_tokens <= budget, "budget {budget}: {}", cut.text);
        assert_eq!(cut.total_tokens, engine.count_tokens(&cut.text));
    }
    let other = Scope { user_id: Some("bob".into()), ..Scope::default() };
    let empty = block_on(engine.tiers().format_for_injection(&other, 100)).unwrap();
    assert_eq!((empty.text.as_str(), empty.total_tokens, empty.memories.len()), ("", 0, 0));
}
