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

/// Whether `word` (lower case) is one of the [`STOP_WORDS`].
pub fn is_stop_word(word: &str) -> bool {
    STOP_WORDS.binary_search(&word).is_ok()
}

/// How many words [`term_of`] remembers before it starts over (about 1.5 MB at most).
const TERMS_KEPT: usize = 1 << 15;

thread_local! {
    /// The terms of words already seen (`None`: a stop word): a store's texts repeat their words, and
    /// stemming them and looking them up among the stop words was a quarter of indexing them.
    static TERMS: RefCell<FxHashMap<String, Option<String>>> = RefCell::default();
}

/// Calls `visit` with the term of `word`: none for a stop word, the Snowball English stem of a word of
/// ASCII letters (remembered), any other word (digits, accents, other scripts: never a stop word) as it is.
fn term_of(stemmer: &Stemmer, word: &str, visit: &mut dyn FnMut(&str)) {
    if !word.bytes().all(|b| b.is_ascii_lowercase()) {
        return visit(word);
    }
    TERMS.with_borrow_mut(|terms| {
        if let Some(term) = terms.get(word) {
            return term.as_deref().into_iter().for_each(visit);
        }
        if terms.len() >= TERMS_KEPT {
            terms.clear();
        }
        let term = (!is_stop_word(word)).then(|| stemmer.stem(word).into_owned());
        term.as_deref().into_iter().for_each(&mut *visit);
        terms.insert(word.to_owned(), term);
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

/// Hands each term to `visit` while the text is scanned.
struct Terms<'a> {
    visit: &'a mut dyn FnMut(&str),
    word: String,
    cjk: Vec<char>,
    stemmer: Stemmer,
}

impl<'a> Terms<'a> {
    fn new(visit: &'a mut dyn FnMut(&str)) -> Self {
        Self { visit, word: String::new(), cjk: Vec::new(), stemmer: Stemmer::create(Algorithm::English) }
    }

    /// Ends a word: a stop word is dropped, a word of ASCII letters is stemmed, others stay as they are.
    /// The word's buffer is kept for the next word: a known word costs no allocation.
    fn end_word(&mut self) {
        if !self.word.is_empty() {
            term_of(&self.stemmer, &self.word, self.visit);
            self.word.clear();
        }
    }

    /// A CJK run becomes each character and each adjacent pair (as Lucene's CJK bigrams with unigrams).
    fn end_cjk(&mut self) {
        let mut buffer = [0u8; 8];
        for (i, &c) in self.cjk.iter().enumerate() {
            let one = c.len_utf8();
            c.encode_utf8(&mut buffer);
            (self.visit)(std::str::from_utf8(&buffer[..one]).unwrap_or_default());
            if let Some(&next) = self.cjk.get(i + 1) {
                let two = one + next.encode_utf8(&mut buffer[one..]).len();
                (self.visit)(std::str::from_utf8(&buffer[..two]).unwrap_or_default());
            }
        }
        self.cjk.clear();
    }
}

/// The search terms of `text`, in order of appearance (repeats kept: they count as term frequency).
pub fn tokenize(text: &str) -> Vec<String> {
    let mut terms = Vec::new();
    each_term(text, &mut |term| terms.push(term.to_owned()));
    terms
}

/// Calls `visit` with each search term of `text`, in order of appearance (repeats kept), as [`tokenize`]
/// lists them: an index looks each up without an allocation per term.
pub fn each_term(text: &str, visit: &mut dyn FnMut(&str)) {
    if text.is_ascii() {
        return each_ascii_term(text, visit);
    }
    each_unicode_term(text, visit);
}

/// [`each_term`] of ASCII text, split at every byte that is no letter or digit: the same terms without the
/// Unicode steps (NFC, case mapping, character classes), which were most of indexing a store of plain English.
fn each_ascii_term(text: &str, visit: &mut dyn FnMut(&str)) {
    let mut terms = Terms::new(visit);
    for word in text.split(|c: char| !c.is_ascii_alphanumeric()).filter(|word| !word.is_empty()) {
        terms.word.push_str(word);
        terms.word.make_ascii_lowercase();
        terms.end_word();
    }
}

/// [`each_term`] of any text.
fn each_unicode_term(text: &str, visit: &mut dyn FnMut(&str)) {
    let mut terms = Terms::new(visit);
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
}

#[cfg(test)]
mod tests {
    use super::{each_unicode_term, tokenize};

    fn tokenize_unicode(text: &str) -> Vec<String> {
        let mut terms = Vec::new();
        each_unicode_term(text, &mut |term| terms.push(term.to_owned()));
        terms
    }

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
