//! Chunking against hand-made documents whose sizes are known in tokens by the estimate's rules (a short
//! word 1 token, the space before it included; a period 1; a paragraph break 1).

use super::*;
use crate::core::documents::clean;

/// A sentence of exactly `tokens` tokens (at least 2): `tokens - 1` words, capitalised, and a period.
fn sentence(tokens: usize) -> String {
    format!("Word{}.", " word".repeat(tokens - 2))
}

/// The chunks of `text` after cleaning.
fn chunks(text: &str) -> Vec<Chunk> {
    chunk(&clean(text).unwrap())
}

fn sizes(chunks: &[Chunk]) -> Vec<usize> {
    chunks.iter().map(|c| c.tokens).collect()
}

#[test]
fn paragraphs_are_chunks_sized_with_the_estimate() {
    let (a, b, c) = (sentence(100), sentence(120), sentence(80));
    let found = chunks(&format!("{a}\n\n\n\n{b}\n\n{c}"));
    assert_eq!(sizes(&found), [100, 120, 80]);
    assert_eq!(found.iter().map(|c| c.text.as_str()).collect::<Vec<_>>(), [&a, &b, &c]);
    assert_eq!(sizes(&chunks("Hello world.")), [3], "a text under 50 tokens is one chunk");
}

#[test]
fn short_chunks_merge_with_the_neighbour_that_gives_the_smaller_chunk() {
    let (big, short, bigger) = (sentence(100), sentence(10), sentence(200));
    let found = chunks(&format!("{big}\n\n{short}\n\n{bigger}"));
    assert_eq!(found[0].text, format!("{big}\n\n{short}"), "100 + 10 beats 10 + 200");
    assert_eq!(sizes(&found), [111, 200], "the separator counts: 100 + 1 + 10");
    let tie = chunks(&format!("{big}\n\n{short}\n\n{big}"));
    assert_eq!(tie[1].text, format!("{short}\n\n{big}"), "on a tie, the next one (a heading introduces it)");
    let heading = chunks(&format!("# Setup\n\n{big}"));
    assert_eq!((heading.len(), heading[0].text.starts_with("# Setup\n\n")), (1, true));
    let many = chunks(&vec![sentence(10); 6].join("\n\n"));
    assert_eq!(sizes(&many), [65], "six 10-token paragraphs and five breaks merge into one");
}

#[test]
fn a_short_chunk_stays_short_when_no_neighbour_can_take_it() {
    let (big, short) = (sentence(290), sentence(20));
    assert_eq!(sizes(&chunks(&format!("{big}\n\n{short}\n\n{big}"))), [290, 20, 290]);
}

#[test]
fn long_paragraphs_split_at_sentences_into_similar_pieces() {
    let sentences: Vec<String> = (0..16).map(|_| sentence(40)).collect();
    let paragraph = sentences.join(" ");
    assert_eq!(estimate_tokens(&paragraph), 640, "the space after a period belongs to the next word");
    let found = chunks(&paragraph);
    assert_eq!(sizes(&found), [240, 240, 160], "a piece closes once it reaches ⌈640 / 3⌉ = 214 tokens");
    assert!(found.iter().all(|c| c.text.ends_with('.') && c.text.starts_with("Word")));
    assert_eq!(found.iter().map(|c| c.text.as_str()).collect::<Vec<_>>().join(" "), paragraph, "nothing lost");
    let whole = sentence(400);
    assert_eq!(sizes(&chunks(&whole)), [400], "one sentence longer than 300 tokens stays whole");
    let no_boundary = format!("{} and then. more lower case", sentence(350));
    assert_eq!(chunks(&no_boundary).len(), 1, "no capital after the period: no boundary");
}

#[test]
fn a_code_block_with_blank_lines_is_never_split() {
    let code = "```python\ndef f():\n\n\n\n    return 1\n\n\ndef g():\n    return 2\n```";
    let text = format!("{}\n\n{code}\n\n\n{}", sentence(60), sentence(60));
    let found = chunks(&text);
    let holding: Vec<&Chunk> = found.iter().filter(|c| c.text.contains("```")).collect();
    assert_eq!(holding.len(), 1, "{found:#?}");
    assert!(holding[0].text.contains(code), "the code block, its blank lines included, is in one chunk");
    assert_eq!(sizes(&found), [60, 85], "the 24-token code block merges with a neighbour (the next on a tie)");
}

#[test]
fn a_code_block_over_300_tokens_is_one_chunk() {
    let body: Vec<String> = (0..50).map(|i| format!("let value_{i:02} = compute({i:02});\n")).collect();
    let code = format!("```rust\n{}\n\n{}```", body[..25].concat(), body[25..].concat());
    let found = chunks(&format!("{}\n\n{code}\n\n{}", sentence(100), sentence(100)));
    assert_eq!(found.len(), 3);
    assert_eq!(found[1].text, code);
    assert!(found[1].tokens > MAX_CHUNK_TOKENS, "{}", found[1].tokens);
}

#[test]
fn a_long_paragraph_is_cut_around_its_code_block() {
    let code = format!("```\n{}\n\n{}\n```", "x = 1;".repeat(12), "y = 2;".repeat(12));
    assert_eq!(estimate_tokens(&code), 2 + 60 + 1 + 60 + 2, "x, =, the space before 1, 1 and ; are 5 tokens");
    let prose: Vec<String> = (0..5).map(|_| sentence(60)).collect();
    let text = format!("{}\n{code}\n{}", prose.join(" "), prose.join(" "));
    let found = chunks(&text);
    assert!(found.len() >= 3, "{}", sizes(&found).len());
    assert_eq!(found.iter().filter(|c| c.text.contains(&code)).count(), 1, "the code block is in one piece");
    assert!(found.iter().all(|c| c.tokens <= MAX_CHUNK_TOKENS), "{:?}", sizes(&found));
}

#[test]
fn cjk_and_emoji_count_more_than_a_token_per_character() {
    let sentence_cjk = format!("{}。", "记忆".repeat(25));
    assert_eq!(estimate_tokens(&sentence_cjk), 64, "50 characters at 1¼, and 。");
    let found = chunks(&sentence_cjk.repeat(8));
    assert_eq!(sizes(&found), [256, 256], "512 tokens: split in two at 。");
    assert!(found.iter().all(|c| c.text.ends_with('。')));
    let emoji = chunks("Party 🎉🎉🎉 tonight!");
    assert_eq!(sizes(&emoji), [12], "Party, 3 emoji × 3, tonight, !");
}

#[test]
fn empty_input_is_invalid() {
    for blank in ["", " \n\n ", "\t"] {
        assert_eq!(clean(blank).unwrap_err().code(), "INVALID_INPUT");
    }
}
