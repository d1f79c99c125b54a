//! The context window's budget holds whatever the turns and the model's summaries are: an oversized turn is
//! cut (with a warning), a long summary keeps to its share, so folds stay rare.

use super::*;
use crate::core::model::types::WarningCode;

/// A text of about `tokens` tokens, as the memory counts them.
fn text_of(engine: &Engine, tokens: usize) -> String {
    let mut text = String::new();
    let mut n = 0;
    while engine.tiers().message_tokens(&turn("user", &text)) < tokens {
        text.push_str(&format!("word{n} "));
        n += 1;
    }
    text
}

#[test]
fn the_window_never_exceeds_its_budget_and_an_oversized_turn_is_cut_with_a_warning() {
    let world = World::new(summarizer);
    let engine = world.engine();
    let window = ContextWindow { scope: alice(), max_tokens: 1000, keep_last: 6 };
    block_on(engine.tiers().context_push(&window, vec![turn("user", "hello")])).unwrap();
    let big = text_of(&engine, 995);
    let result = block_on(engine.tiers().context_push(&window, vec![turn("assistant", &big)])).unwrap();
    assert!(result.total_tokens <= 1000, "{} tokens", result.total_tokens);
    assert_eq!(result.messages.last().unwrap().content, big, "a turn within the budget is kept whole");
    assert!(result.warnings.is_empty());

    let huge = text_of(&engine, 1500);
    let result = block_on(engine.tiers().context_push(&window, vec![turn("user", &huge)])).unwrap();
    assert!(result.total_tokens <= 1000, "{} tokens", result.total_tokens);
    let newest = &result.messages.last().unwrap().content;
    assert!(huge.starts_with(newest.trim_end_matches(" …")) && newest.len() < huge.len(), "cut, from its start");
    assert_eq!(result.warnings.iter().map(|w| w.code).collect::<Vec<_>>(), [WarningCode::TurnTruncated]);

    let tiny = ContextWindow {
        scope: Scope { user_id: Some("bob".into()), ..Scope::default() },
        max_tokens: 25,
        keep_last: 2,
    };
    for i in 0..12 {
        let result =
            block_on(engine.tiers().context_push(&tiny, vec![turn("user", &format!("short turn number {i}"))]))
                .unwrap();
        assert!(result.total_tokens <= 25, "push {i}: {} tokens", result.total_tokens);
        let counted: usize = result.messages.iter().map(|m| engine.tiers().message_tokens(m)).sum();
        assert_eq!(result.total_tokens, counted);
    }
}

#[test]
fn a_long_summary_keeps_to_its_share_so_folds_stay_rare() {
    let world = World::new(|_| "The user and the assistant planned a long trip. ".repeat(90));
    let engine = world.engine();
    let window = ContextWindow { scope: alice(), max_tokens: 1000, keep_last: 6 };
    let mut folds = 0;
    for i in 0..100 {
        let text = format!("Turn {i}: {}", "we should visit Lisbon and Porto in spring ".repeat(3));
        let result = block_on(engine.tiers().context_push(&window, vec![turn("user", &text)])).unwrap();
        assert!(result.total_tokens <= 1000, "push {i}: {} tokens", result.total_tokens);
        folds += usize::from(result.summarized > 0);
    }
    assert_eq!(world.calls(""), folds, "one summary call per fold");
    assert!(folds <= 20, "{folds} summary calls in 100 pushes");
}
