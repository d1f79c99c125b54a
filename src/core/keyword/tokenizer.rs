//! Splits text into search terms: Unicode NFC, lowercase, runs of letters and digits, CJK as characters
//! and character pairs, a small English stop-word list dropped, and words of plain Latin letters reduced
//! to their Snowball English stem ("paintings", "painted" → "paint").

use std::cell::RefCell;

use rust_stemmers::{Algorithm, Stemmer};
use rustc_hash::FxHashMap;

use super::normalize::nfc;
use crate::core::case::lowercase_chars;

/// Words too common to help a search (Lucene's English list, a few pronouns and auxiliaries, and the
/// `s` / `t` that apostrophes leave behind), in order: a word is looked up by binary search.
const STOP_WORDS: &[&str] = &[
    "a", "an", "and", "are", "as", "at", "be", "been", "but", "by", "did", "do", "does", "for", "had", "has", "have",
    "how", "i", "if", "in", "into", "is", "it", "its", "me", "my", "no", "not", "of", "on", "or", "s", "such", "t",
    "that", "the", "their", "then", "there", "these", "they", "this", "to", "was", "were", "what", "which", "who",
    "will", "with",
];

/// How many words [`term_of`] remembers before it starts over (about 1.5 MB at most).
const TERMS_KEPT: usize = 1 << 15;

thread_local! {
    /// The terms of words already seen (`None`: a stop word): a store's texts repeat their words, and
    /// stemming them and looking them up among the stop words was a quarter of indexing them.
    static TERMS: RefCell<FxHashMap<String, Option<String>>> = RefCell::default();
}

/// The term of `word`: `None` for a stop word, the Snowball English stem of a word of ASCII letters
/// (remembered), any other word (digits, accents, other scripts: never a stop word) as it is.
fn term_of(stemmer: &Stemmer, word: &str) -> Option<String> {
    if !word.bytes().all(|b| b.is_ascii_lowercase()) {
        return Some(word.to_owned());
    }
    TERMS.with_borrow_mut(|terms| {
        if let Some(term) = terms.get(word) {
            return term.clone();
        }
        if terms.len() >= TERMS_KEPT {
            terms.clear();
        }
        let term = match STOP_WORDS.binary_search(&word) {
            Ok(_) => None,
            Err(_) => Some(stemmer.stem(word).into_owned()),
        };
        terms.insert(word.to_owned(), term.clone());
        term
    })
}

/// True for Han ideographs, kana and Hangul: scripts written without spaces between words.
fn is_cjk(c: char) -> bool {
    matches!(c as u32,
        0x1100..=0x11FF       // Hangul Jamo
        | 0x3005..=0x3007     // 々 〆 〇
        | 0x3040..=0x30FF     // Hiragana, Katakana
        | 0x3130..=0x318F     // Hangul compatibility Jamo
        | 0x31F0..=0x31FF     // Katakana phonetic extensions
        | 0x3400..=0x4DBF     // CJK extension A
        | 0x4E00..=0x9FFF     // CJK unified ideographs
        | 0xAC00..=0xD7AF     // Hangul syllables
        | 0xF900..=0xFAFF     // CJK compatibility ideographs
        | 0xFF66..=0xFF9F     // half-width Katakana
        | 0x20000..=0x3134F // CJK extensions B–G
    )
}

/// Collects terms while the text is scanned.
struct Terms {
    terms: Vec<String>,
    word: String,
    cjk: Vec<char>,
    stemmer: Stemmer,
}

impl Terms {
    fn new() -> Self {
        Self { terms: Vec::new(), word: String::new(), cjk: Vec::new(), stemmer: Stemmer::create(Algorithm::English) }
    }

    /// Ends a word: a stop word is dropped, a word of ASCII letters is stemmed, others stay as they are.
    /// The word's buffer is kept for the next word: a known word costs one allocation, its term's.
    fn end_word(&mut self) {
        if !self.word.is_empty() {
            self.terms.extend(term_of(&self.stemmer, &self.word));
            self.word.clear();
        }
    }

    /// A CJK run becomes each character and each adjacent pair (as Lucene's CJK bigrams with unigrams).
    fn end_cjk(&mut self) {
        for (i, &c) in self.cjk.iter().enumerate() {
            self.terms.push(c.to_string());
            if let Some(&next) = self.cjk.get(i + 1) {
                self.terms.push([c, next].iter().collect());
            }
        }
        self.cjk.clear();
    }
}

/// The search terms of `text`, in order of appearance (repeats kept: they count as term frequency).
pub fn tokenize(text: &str) -> Vec<String> {
    if text.is_ascii() {
        return tokenize_ascii(text);
    }
    tokenize_unicode(text)
}

/// [`tokenize`] of ASCII text, byte by byte: the same terms without the Unicode steps (NFC, case
/// mapping, character classes), which were most of indexing a store of plain English.
fn tokenize_ascii(text: &str) -> Vec<String> {
    let mut terms = Terms::new();
    for byte in text.bytes() {
        if byte.is_ascii_alphanumeric() {
            terms.word.push(byte.to_ascii_lowercase() as char);
        } else {
            terms.end_word();
        }
    }
    terms.end_word();
    terms.terms
}

/// [`tokenize`] of any text.
fn tokenize_unicode(text: &str) -> Vec<String> {
    let mut terms = Terms::new();
    for c in lowercase_chars(&nfc(text)).chars() {
        if is_cjk(c) {
            terms.end_word();
            terms.cjk.push(c);
        } else if c.is_alphanumeric() {
            terms.end_cjk();
            terms.word.push(c);
        } else {
            terms.end_word();
            terms.end_cjk();
        }
    }
    terms.end_word();
    terms.end_cjk();
    terms.terms
}

#[cfg(test)]
mod tests {
    use super::{tokenize, tokenize_unicode};

    #[test]
    fn ascii_text_gets_the_terms_the_unicode_path_gives() {
        let texts = [
            "The user's favourite IDE is VS-Code (v1.85)!",
            "  ...!?  ",
            "it is what it is",
            "C++ and C#",
            "Meeting on 2024-03-15 at 10:30",
            "PAINTED\tpaintings\nPainting",
            "x",
            "",
            "a1b2 C3d4 __init__ e_mail",
        ];
        for text in texts {
            assert_eq!(tokenize(text), tokenize_unicode(text), "{text:?}");
        }
    }

    #[test]
    fn lowercases_splits_on_punctuation_and_drops_stop_words() {
        assert_eq!(
            tokenize("The user's favourite IDE is VS-Code (v1.85)!"),
            ["user", "favourit", "ide", "vs", "code", "v1", "85"]
        );
        assert_eq!(tokenize("  ...!?  "), Vec::<String>::new());
        assert_eq!(tokenize("it is what it is"), Vec::<String>::new());
        assert_eq!(tokenize("C++ and C#"), ["c", "c"]);
    }

    #[test]
    fn english_words_are_stemmed_others_kept() {
        assert_eq!(tokenize("Painting paintings painted"), ["paint", "paint", "paint"]);
        assert_eq!(tokenize("researched adoption agencies"), tokenize("research adopt agency"));
        // Accented, non-Latin and mixed letter-digit words stay whole.
        assert_eq!(tokenize("naïve bücher iphone15"), ["naïve", "bücher", "iphone15"]);
    }

    #[test]
    fn accents_stay_inside_words_and_nfc_unifies_spellings() {
        let composed = tokenize("Café Zürich");
        assert_eq!(composed, ["café", "zürich"]);
        // "e" + combining acute accent (NFD) means the same word as the precomposed "é".
        assert_eq!(tokenize("Cafe\u{301} Zu\u{308}rich"), composed);
        assert_eq!(tokenize("ÉCOLE naïve Ωμέγα straße"), ["école", "naïve", "ωμέγα", "straße"]);
    }

    #[test]
    fn stop_words_are_in_order_for_their_binary_search() {
        assert!(super::STOP_WORDS.windows(2).all(|pair| pair[0] < pair[1]));
        // Only words of ASCII letters are looked up among them.
        assert!(super::STOP_WORDS.iter().all(|word| word.bytes().all(|b| b.is_ascii_lowercase())));
    }

    #[test]
    fn cjk_runs_become_characters_and_pairs() {
        assert_eq!(tokenize("東京都"), ["東", "東京", "京", "京都", "都"]);
        assert_eq!(tokenize("猫"), ["猫"]);
        // Scripts switch: Latin words and CJK runs are separate terms; CJK punctuation splits runs.
        assert_eq!(
            tokenize("I love ラーメン。寿司"),
            ["love", "ラ", "ラー", "ー", "ーメ", "メ", "メン", "ン", "寿", "寿司", "司"]
        );
        assert_eq!(tokenize("서울에 살아"), ["서", "서울", "울", "울에", "에", "살", "살아", "아"]);
        assert_eq!(tokenize("iPhone15を買った"), ["iphone15", "を", "を買", "買", "買っ", "っ", "った", "た"]);
    }

    #[test]
    fn digits_and_other_scripts_are_words() {
        assert_eq!(tokenize("Meeting on 2024-03-15 at 10:30"), ["meet", "2024", "03", "15", "10", "30"]);
        assert_eq!(tokenize("Привет, мир"), ["привет", "мир"]);
        assert_eq!(tokenize("emoji 🎉 party"), ["emoji", "parti"]);
    }
}
