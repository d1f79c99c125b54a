//! The estimate's rules on small texts, and (natively) its error against the real `cl100k_base` and
//! `o200k_base` tokenizers on tests/fixtures/token_corpus.txt. `--nocapture` prints the error table that
//! docs/token-counting.md quotes.

use super::*;

#[test]
fn words_cost_by_length_capitals_and_humps() {
    assert_eq!(estimate_tokens(""), 0);
    assert_eq!(estimate_tokens("hello world"), 2, "the space belongs to the word after it");
    assert_eq!(estimate_tokens("Hello, world!"), 4);
    for (word, tokens) in [
        ("cat", 1),
        ("because", 1),
        ("scientist", 2),
        ("engineering", 2),
        ("specializing", 3),
        ("communication", 4),
        ("internationalization", 6),
    ] {
        assert_eq!(estimate_tokens(word), tokens, "{word}: 1 up to 7 letters, +1 per 4 up to 12, then per 3");
    }
    assert_eq!(estimate_tokens("A"), 1);
    assert_eq!(estimate_tokens("SQL"), 1);
    assert_eq!(estimate_tokens("PROCEDURAL"), 4, "capitals: 1 per 3");
    assert_eq!(estimate_tokens("getUserPreferenceByKey"), 6, "get, User, Preference (2), By, Key");
    assert_eq!(estimate_tokens("HTTPServer"), 3, "HTTP (2), Server");
}

#[test]
fn digits_scripts_symbols_and_emoji() {
    assert_eq!(estimate_tokens("1234567"), 3, "groups of 3");
    assert_eq!(estimate_tokens("2024-01-20"), 6, "202 4 - 01 - 20");
    assert_eq!(estimate_tokens("x 5"), 3, "a space before a digit is a token of its own");
    assert_eq!(estimate_tokens("東京"), 3, "1¼ each, rounded up");
    assert_eq!(estimate_tokens(&format!("{}。", "记忆".repeat(25))), 63 + 1);
    assert_eq!(estimate_tokens("café"), 2, "an accented letter costs 1 more");
    assert_eq!(estimate_tokens("über"), 2);
    assert_eq!(estimate_tokens("Привет"), 3, "Cyrillic: ½ each");
    for (symbols, tokens) in [("...", 1), ("://", 1), ("!!!!", 2), ("—", 1), ("🎉", 3), ("🎉🎉🎉", 9)] {
        assert_eq!(estimate_tokens(symbols), tokens, "{symbols}");
    }
    assert_eq!(estimate_tokens("Party 🎉🎉🎉 tonight!"), 1 + 9 + 1 + 1);
}

#[test]
fn whitespace_folds_into_the_next_piece_and_line_breaks_pair_up() {
    assert_eq!(estimate_tokens("a\nb"), 3);
    assert_eq!(estimate_tokens("a\n\n\nb"), 4, "three line breaks: 2");
    assert_eq!(estimate_tokens("a    b"), 3, "3 spaces, then one folded into b");
    assert_eq!(estimate_tokens("a\n        b"), 4, "the break, 7 spaces, and b with its space");
    assert_eq!(estimate_tokens("  "), 1);
}

#[test]
fn texts_ending_in_a_line_break_cost_at_most_the_sum_when_joined() {
    let pieces = ["<memory>\n", "[SEMANTIC] User likes tea\n", "  indented\n", "\n\n", "x 1\n", "東京\n", "</memory>"];
    for a in pieces {
        for b in pieces {
            let joined = format!("{a}{b}");
            assert!(estimate_tokens(&joined) <= estimate_tokens(a) + estimate_tokens(b), "{joined:?}");
        }
    }
}

#[test]
fn any_non_empty_text_costs_at_least_one_token_and_nothing_panics() {
    for text in [" ", "\u{301}", "\u{200D}", "\0", "\u{FFFF}", "\u{10FFFF}", "e\u{301}\u{301}", "\r\n", "_"] {
        assert!(estimate_tokens(text) >= 1, "{text:?}");
    }
}

#[test]
fn the_counter_estimates_unless_a_tokenizer_is_injected() {
    let estimate = TokenCounter::default();
    assert_eq!(estimate.count("Hello, world!"), 4);
    assert_eq!(format!("{estimate:?}"), "TokenCounter(estimate)");
    let chars = TokenCounter::from_fn(|text| text.chars().count());
    assert_eq!(chars.clone().count("Hello, world!"), 13, "a clone asks the same function");
    assert_eq!(format!("{chars:?}"), "TokenCounter(injected)");
}

#[cfg(not(target_arch = "wasm32"))]
mod against_the_real_tokenizers {
    use super::estimate_tokens;

    /// The corpus samples, each with its section: `\n` and `\t` stand for a line break and a tab.
    fn corpus() -> Vec<(&'static str, String)> {
        let mut section = "";
        let mut samples = Vec::new();
        for line in include_str!("../../tests/fixtures/token_corpus.txt").lines() {
            if let Some(name) = line.strip_prefix("// == ") {
                section = name;
            } else if !line.trim().is_empty() && !line.starts_with("// ") {
                samples.push((section, line.replace("\\n", "\n").replace("\\t", "\t")));
            }
        }
        samples
    }

    /// The estimate this module replaced: a quarter token per ASCII character, one per other, rounded up.
    fn quarter_per_char(text: &str) -> usize {
        text.chars().map(|c| if c.is_ascii() { 1 } else { 4 }).sum::<usize>().div_ceil(4)
    }

    /// How an estimate fares against the real counts, sample by sample.
    struct Error {
        real: usize,
        estimated: usize,
        /// Mean of |estimated − real| / real.
        mean_relative: f64,
        under: usize,
        /// Largest (real − estimated) / real; negative when nothing is under-counted.
        worst_under: f64,
        /// Samples under-counted by more than 10 % + 2 tokens.
        far_under: Vec<String>,
    }

    fn error(samples: &[&str], real: &[usize], estimate: fn(&str) -> usize) -> Error {
        let estimated: Vec<usize> = samples.iter().map(|s| estimate(s)).collect();
        let pairs = || real.iter().zip(&estimated).map(|(&r, &e)| (r as f64, e as f64));
        Error {
            real: real.iter().sum(),
            estimated: estimated.iter().sum(),
            mean_relative: pairs().map(|(r, e)| (e - r).abs() / r).sum::<f64>() / samples.len() as f64,
            under: pairs().filter(|(r, e)| e < r).count(),
            worst_under: pairs().map(|(r, e)| (r - e) / r).fold(f64::MIN, f64::max),
            far_under: samples
                .iter()
                .zip(pairs())
                .filter(|(_, (r, e))| *e < 0.9 * r - 2.0)
                .map(|(s, (r, e))| format!("{r} real, {e} estimated: {s:?}"))
                .collect(),
        }
    }

    fn percent(estimated: usize, real: usize) -> String {
        format!("{:+.0}%", 100.0 * (estimated as f64 / real as f64 - 1.0))
    }

    #[test]
    fn the_estimate_stays_at_or_above_the_real_count_and_beats_the_quarter_rule() {
        let corpus = corpus();
        let samples: Vec<&str> = corpus.iter().map(|(_, s)| s.as_str()).collect();
        assert!(samples.len() >= 60, "{} samples", samples.len());
        let cl100k = tiktoken_rs::cl100k_base_singleton();
        let o200k = tiktoken_rs::o200k_base_singleton();
        let tokenizers = [("cl100k_base", cl100k, 0.15), ("o200k_base", o200k, 0.25)];
        println!("| tokenizer | estimate | real | estimated | total | mean abs. error | under-counted | worst |");
        println!("|---|---|---:|---:|---:|---:|---:|---:|");
        for (name, bpe, most_over) in tokenizers {
            let real: Vec<usize> = samples.iter().map(|s| bpe.encode_ordinary(s).len()).collect();
            let new = error(&samples, &real, estimate_tokens);
            let old = error(&samples, &real, quarter_per_char);
            for (label, e) in [("new", &new), ("¼ per character", &old)] {
                println!(
                    "| {name} | {label} | {} | {} | {} | {:.1}% | {}/{} | {:.1}% |",
                    e.real,
                    e.estimated,
                    percent(e.estimated, e.real),
                    100.0 * e.mean_relative,
                    e.under,
                    samples.len(),
                    -100.0 * e.worst_under.max(0.0)
                );
            }
            let over = new.estimated as f64 / new.real as f64 - 1.0;
            assert!((0.0..=most_over).contains(&over), "{name}: total off by {:+.1}%", 100.0 * over);
            assert!(new.far_under.is_empty(), "{name}: under-counted by over 10 % + 2:\n{}", new.far_under.join("\n"));
            assert!(old.estimated < old.real, "{name}: the quarter rule under-counts the corpus");
            assert!(new.mean_relative < old.mean_relative, "{name}: mean error");
            assert!(new.under * 3 < old.under, "{name}: under-counted samples {} vs {}", new.under, old.under);
            assert!(new.worst_under < old.worst_under / 2.0, "{name}: worst under-count");
        }
        println!("\n| section | samples | cl100k_base | o200k_base | new | ¼ per character |");
        println!("|---|---:|---:|---:|---:|---:|");
        let mut sections: Vec<&str> = corpus.iter().map(|(section, _)| *section).collect();
        sections.dedup();
        for section in sections {
            let texts: Vec<&str> = corpus.iter().filter(|(s, _)| *s == section).map(|(_, t)| t.as_str()).collect();
            let sum = |count: &dyn Fn(&str) -> usize| texts.iter().map(|t| count(t)).sum::<usize>();
            let (cl, o2) = (sum(&|t| cl100k.encode_ordinary(t).len()), sum(&|t| o200k.encode_ordinary(t).len()));
            let (new, old) = (sum(&estimate_tokens), sum(&quarter_per_char));
            let against = |n: usize| format!("{n} ({} / {})", percent(n, cl), percent(n, o2));
            println!("| {section} | {} | {cl} | {o2} | {} | {} |", texts.len(), against(new), against(old));
        }
    }
}
