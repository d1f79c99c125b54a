//! A query that names one speaker of the conversation ("What did Melanie paint?") asks what that speaker
//! said. It is ranked without the name, which would otherwise pull in every turn that mentions it, and
//! that speaker's turns rise in the fused ranking. A turn's speaker is the `name` its message gave (kept as
//! `actor_id`), else the name its text starts with, as a transcript writes it ("Melanie: I painted a
//! lake"); a query names a speaker with a capital letter, or in any word but a stop word when it is typed
//! all in lower case ("what did melanie paint?"), unless the conversation itself writes that word in lower
//! case more often than capitalised (a speaker named Art, and turns that talk of art).

use std::ops::Range;

use crate::core::case::lowercase;
use crate::core::fusion::Ranking;
use crate::core::keyword::is_stop_word;
use crate::core::message_fields::ACTOR_KEY;
use crate::core::model::types::MemoryItem;

/// How far a turn of the speaker the query names rises towards the top score: `s + share · (top − s)`.
pub const SPEAKER_SHARE: f64 = 0.25;
/// How many of the scope's turns holding a query's word are read for their speakers (and, in a query typed
/// in lower case, for how they write the word).
pub const TURNS_READ: usize = 64;
/// The most words a speaker's name has.
const MOST_NAME_WORDS: usize = 3;
/// The longest speaker's name, in bytes.
const LONGEST_NAME: usize = 40;

/// The speaker a query names, and the query without the name (the query itself when nothing else is left).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NamedSpeaker {
    pub name: String,
    pub query: String,
}

/// A turn that holds a query's word: who said it, and its text.
#[derive(Debug, Clone, Copy)]
pub struct Holder<'t> {
    pub speaker: &'t str,
    pub text: &'t str,
}

/// The speaker `text` starts with: one to three words, each starting with a capital letter, before its
/// first `": "` ("Melanie: …", "Dr. Ada Lane: …").
pub fn speaker_of(text: &str) -> Option<&str> {
    // `": "` is ASCII, so its byte position is a character boundary.
    let end = text.as_bytes().windows(2).take(LONGEST_NAME + 1).position(|pair| pair == b": ")?;
    let name = &text[..end];
    let words: Vec<&str> = name.split(' ').collect();
    let word_ok = |w: &&str| capitalised(w) && w.chars().all(|c| c.is_alphanumeric() || matches!(c, '.' | '\'' | '-'));
    (words.len() <= MOST_NAME_WORDS && words.iter().all(word_ok)).then_some(name)
}

/// The `actor_id` a turn's message `name` gave it.
fn actor_of(item: &MemoryItem) -> Option<&str> {
    item.metadata.get(ACTOR_KEY).and_then(serde_json::Value::as_str)
}

/// Who said turn `item`: its `actor_id`, else the name its text starts with.
pub fn turn_speaker(item: &MemoryItem) -> Option<&str> {
    actor_of(item).or_else(|| speaker_of(&item.memory))
}

/// Whether `item` is a conversation turn: a message stored as it was said (it has a `role`).
pub fn is_turn(item: &MemoryItem) -> bool {
    item.metadata.contains_key("role")
}

/// What the keyword index reads of a memory, and whether it is a conversation turn ([`is_turn`]),
/// indexed as a turn of its scope's conversation.
pub fn keyword_text(item: &MemoryItem) -> (std::borrow::Cow<'_, str>, bool) {
    match is_turn(item) {
        true => (turn_keyword_text(item), true),
        false => (item.memory.as_str().into(), false),
    }
}

/// What the keyword index reads of a turn: its text, after its speaker's name when only `actor_id` holds
/// it (as a transcript writes it), so that a query naming the speaker finds their turns.
pub fn turn_keyword_text(item: &MemoryItem) -> std::borrow::Cow<'_, str> {
    match actor_of(item) {
        Some(actor) if speaker_of(&item.memory).is_none() => format!("{actor}: {}", item.memory).into(),
        _ => item.memory.as_str().into(),
    }
}

/// Whether `word` starts with a capital letter: one that the case mapping changes (`core::case`, whose
/// tables the module does not carry).
fn capitalised(word: &str) -> bool {
    match word.chars().next() {
        Some(c) if c.is_ascii() => c.is_ascii_uppercase(),
        Some(c) => {
            let mut buffer = [0; 4];
            let c = &*c.encode_utf8(&mut buffer);
            lowercase(c) != c
        }
        None => false,
    }
}

/// Whether two names are the same, whatever their case.
fn same_name(a: &str, b: &str) -> bool {
    a.eq_ignore_ascii_case(b) || lowercase(a) == lowercase(b)
}

/// The words of `text` (runs of letters and digits) with their byte ranges.
fn words(text: &str) -> Vec<(&str, Range<usize>)> {
    let mut found = Vec::new();
    let mut start = None;
    for (at, c) in text.char_indices().chain([(text.len(), ' ')]) {
        match (c.is_alphanumeric(), start) {
            (true, None) => start = Some(at),
            (false, Some(from)) => {
                found.push((&text[from..at], from..at));
                start = None;
            }
            _ => {}
        }
    }
    found
}

/// Where the words of `name` stand together in `query` (whole words, any case): the byte range of each place.
fn places(query: &[(&str, Range<usize>)], name: &str) -> Vec<Range<usize>> {
    let name: Vec<&str> = words(name).into_iter().map(|(w, _)| w).collect();
    if name.is_empty() {
        return Vec::new();
    }
    query
        .windows(name.len())
        .filter(|run| run.iter().zip(&name).all(|((w, _), n)| same_name(w, n)))
        .map(|run| run[0].1.start..run[run.len() - 1].1.end)
        .collect()
}

/// The one speaker `query` names, when it names exactly one. `holders(word)` lists the scope's turns that
/// hold a word, with their speakers; each word of the query written with a capital letter is asked, or, in
/// a query typed without capitals, each word of letters that is not a stop word and that those turns do
/// not write in lower case more often than capitalised.
pub fn named_speaker<'t>(query: &str, mut holders: impl FnMut(&str) -> Vec<Holder<'t>>) -> Option<NamedSpeaker> {
    let query_words = words(query);
    let lower_case = !query_words.iter().any(|(word, _)| capitalised(word));
    let could_be_a_name = |word: &str| match lower_case {
        true => word.chars().any(char::is_alphabetic) && !is_stop_word(word),
        false => capitalised(word),
    };
    let mut named: Vec<(String, Vec<Range<usize>>)> = Vec::new();
    let mut asked: Vec<&str> = Vec::new();
    for (word, _) in &query_words {
        if !could_be_a_name(word) || asked.contains(word) {
            continue;
        }
        asked.push(word);
        let holding = holders(word);
        if lower_case && written_as_a_word(word, &holding) {
            continue; // "art" asks about art where the turns talk of art, whoever is named Art
        }
        for Holder { speaker, .. } in holding {
            if lower_case && is_stop_word(&lowercase(speaker)) {
                continue; // "will" is no name where nothing is capitalised
            }
            let at = places(&query_words, speaker);
            let known = named.iter().any(|(name, _)| same_name(name, speaker));
            if !at.is_empty() && !known {
                named.push((speaker.to_owned(), at));
            }
        }
    }
    // Of two speakers, one named only as an object ("to Jon", "Gina's store"), the other is asked about.
    if let [(_, first), (_, second)] = &named[..] {
        match (object_only(&query_words, query, first), object_only(&query_words, query, second)) {
            (false, true) => named.truncate(1),
            (true, false) => drop(named.swap_remove(0)),
            _ => {}
        }
    }
    let [(name, at)] = <[_; 1]>::try_from(named).ok()?;
    Some(NamedSpeaker { query: without(query, &at), name })
}

/// Whether the turns holding `word` (lower case) write it in lower case more often than capitalised, past
/// the speaker's name a turn starts with: a word of the conversation, not only a name.
fn written_as_a_word(word: &str, holding: &[Holder]) -> bool {
    let (mut lower, mut capital) = (0usize, 0usize);
    for Holder { text, .. } in holding {
        let said = speaker_of(text).map_or(*text, |name| &text[name.len()..]);
        for (written, _) in words(said).into_iter().filter(|(w, _)| same_name(w, word)) {
            match capitalised(written) {
                true => capital += 1,
                false => lower += 1,
            }
        }
    }
    lower > capital
}

/// Whether every place of a name in `query` reads as an object: after `to`, `for`, `with`, `about`, `from`,
/// `at`, `of` or `by`, or followed by a possessive.
fn object_only(query_words: &[(&str, Range<usize>)], query: &str, places: &[Range<usize>]) -> bool {
    places.iter().all(|place| {
        let before =
            query_words.iter().rev().find(|(_, word)| word.end <= place.start).map(|(w, _)| w.to_ascii_lowercase());
        let after_preposition =
            matches!(before.as_deref(), Some("to" | "for" | "with" | "about" | "from" | "at" | "of" | "by"));
        after_preposition || possessive(&query[place.end..]).is_some()
    })
}

/// The length of the possessive `rest` starts with (`'s`, `’s`, or an apostrophe alone), if any.
fn possessive(rest: &str) -> Option<usize> {
    let ends = |p: &&&str| rest.starts_with(**p) && !rest[p.len()..].chars().next().is_some_and(char::is_alphanumeric);
    ["'s", "\u{2019}s", "'", "\u{2019}"].iter().find(ends).map(|p| p.len())
}

/// `query` without the text at `places` (each with a possessive `'s` after it), spaces closed up; `query`
/// itself when no word would be left.
fn without(query: &str, places: &[Range<usize>]) -> String {
    let mut kept = String::with_capacity(query.len());
    let mut from = 0;
    for place in places {
        kept.push_str(&query[from..place.start]);
        from = place.end + possessive(&query[place.end..]).unwrap_or(0);
    }
    kept.push_str(&query[from..]);
    let kept = kept.split_whitespace().collect::<Vec<_>>().join(" ");
    match words(&kept).is_empty() {
        true => query.to_owned(),
        false => kept,
    }
}

/// `ranking` with the turns of speaker `name` raised: a memory whose speaker `speaker` says is `name` (any
/// case) scores `s + SPEAKER_SHARE · (1 − s)`.
pub fn raise_speaker<'a, 't>(
    ranking: Ranking<'a>,
    name: &str,
    speaker: impl Fn(&str) -> Option<&'t str>,
) -> Ranking<'a> {
    let spoken = |id: &str| speaker(id).is_some_and(|s| same_name(s, name));
    crate::core::query_time::raise_where(ranking, spoken, SPEAKER_SHARE, 1.0)
}

#[cfg(test)]
#[path = "query_speaker_tests.rs"]
mod tests;
