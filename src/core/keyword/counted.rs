//! Texts' terms counted ahead of indexing, as an open image keeps them: one table of distinct terms and,
//! per text, its length in terms and each distinct term it holds (by its place in the table) with its
//! frequency. The index places such a text without tokenizing it again (`KeywordIndex::upsert_counted`).

use rustc_hash::FxHashMap;

use super::tokenizer::each_term;

/// A text's length in terms, and where its pairs end in the list of pairs.
pub type TextSpan = (u32, u32);
/// A term's place in the table, and how often a text holds it.
pub type TermCount = (u32, u32);

/// The counted terms of a list of texts (see the module).
#[derive(Debug, Default, Clone, PartialEq)]
pub struct CountedTexts {
    /// The distinct terms of every text.
    terms: Vec<Box<str>>,
    /// Per text: its length in terms, and where its pairs end in `pairs` (they start where the text
    /// before's end).
    texts: Vec<TextSpan>,
    /// The pairs of each text, text after text.
    pairs: Vec<TermCount>,
}

impl CountedTexts {
    /// Counts the terms of `texts` as the index's tokenizer reads them.
    pub fn count<T: AsRef<str>>(texts: impl IntoIterator<Item = T>) -> Self {
        let mut counted = Self::default();
        let mut numbers: FxHashMap<Box<str>, u32> = FxHashMap::default();
        let mut listed: FxHashMap<u32, usize> = FxHashMap::default();
        for text in texts {
            let mut len = 0u32;
            listed.clear();
            each_term(text.as_ref(), &mut |term| {
                len = len.saturating_add(1);
                let number = match numbers.get(term) {
                    Some(&number) => number,
                    None => {
                        let number = counted.terms.len() as u32;
                        counted.terms.push(term.into());
                        numbers.insert(term.into(), number);
                        number
                    }
                };
                match listed.get(&number) {
                    Some(&at) => counted.pairs[at].1 += 1,
                    None => {
                        listed.insert(number, counted.pairs.len());
                        counted.pairs.push((number, 1));
                    }
                }
            });
            counted.texts.push((len, counted.pairs.len() as u32));
        }
        counted
    }

    /// Counted texts from their parts (as [`parts`](Self::parts) gives them), or why they do not fit
    /// together: a text's pairs out of order or beyond the list, a term's place beyond the table.
    pub fn from_parts(terms: Vec<Box<str>>, texts: Vec<TextSpan>, pairs: Vec<TermCount>) -> Result<Self, String> {
        let mut start = 0;
        for &(_, end) in &texts {
            if end < start || end as usize > pairs.len() {
                return Err("a text's terms are out of place".into());
            }
            start = end;
        }
        if start as usize != pairs.len() {
            return Err("terms that belong to no text".into());
        }
        if pairs.iter().any(|&(term, _)| term as usize >= terms.len()) {
            return Err("a term number names no term".into());
        }
        Ok(Self { terms, texts, pairs })
    }

    /// The table of terms, each text's (length, end of its pairs), and the pairs.
    pub fn parts(&self) -> (&[Box<str>], &[TextSpan], &[TermCount]) {
        (&self.terms, &self.texts, &self.pairs)
    }

    /// How many texts are counted.
    pub fn len(&self) -> usize {
        self.texts.len()
    }

    /// True when no text is counted.
    pub fn is_empty(&self) -> bool {
        self.texts.is_empty()
    }

    /// The length in terms of text `text` and its (term, frequency) pairs; `None` beyond the list.
    pub(super) fn text(&self, text: usize) -> Option<(u32, impl Iterator<Item = (&str, u32)>)> {
        let start = match text.checked_sub(1) {
            Some(before) => self.texts.get(before)?.1,
            None => 0,
        };
        let &(len, end) = self.texts.get(text)?;
        let pairs = self.pairs.get(start as usize..end as usize)?;
        Some((len, pairs.iter().filter_map(|&(term, tf)| Some((self.terms.get(term as usize)?.as_ref(), tf)))))
    }
}

#[cfg(test)]
mod tests {
    use std::rc::Rc;

    use super::CountedTexts;
    use crate::core::keyword::KeywordIndex;
    use crate::core::model::scope::Scope;

    const TEXTS: [&str; 4] = [
        "Alice paints; Alice painted paintings",
        "Bob: the café in Zürich, the café again",
        "",
        "東京で寿司 and sushi in Tokyo",
    ];

    fn ranked(index: &KeywordIndex, query: &str) -> Vec<(String, String)> {
        let all = |_: &str| true;
        index.search(query, 10, &all, &all).into_iter().map(|(score, id)| (format!("{score:.12}"), id.into())).collect()
    }

    fn assert_same(a: &KeywordIndex, b: &KeywordIndex) {
        for query in ["alice painting", "café zurich", "寿司", "sushi tokyo", "bob"] {
            assert_eq!(ranked(a, query), ranked(b, query), "{query}");
        }
        assert_eq!(a.term_count(), b.term_count());
    }

    #[test]
    fn texts_count_as_the_tokenizer_reads_them() {
        let counted = CountedTexts::count(TEXTS);
        let (terms, texts, _) = counted.parts();
        assert_eq!(texts.len(), 4);
        let (len, pairs) = counted.text(0).unwrap();
        assert_eq!((len, pairs.collect::<Vec<_>>()), (5, vec![("alic", 2), ("paint", 3)]));
        assert_eq!(counted.text(2).map(|(len, pairs)| (len, pairs.count())), Some((0, 0)));
        assert!(counted.text(4).is_none());
        assert_eq!(terms.iter().filter(|term| &***term == "café").count(), 1, "each term once: {terms:?}");
    }

    #[test]
    fn counted_texts_index_as_their_texts_noted_or_after_the_first_read() {
        let scope = Scope { user_id: Some("u".into()), ..Scope::default() };
        let counted = Rc::new(CountedTexts::count(TEXTS));
        let mut from_texts = KeywordIndex::default();
        let mut noted = KeywordIndex::default();
        let mut late = KeywordIndex::default();
        for (at, text) in TEXTS.iter().enumerate() {
            let id = format!("m{at}");
            from_texts.upsert_in(&id, text, &scope);
            noted.upsert_counted(&id, (&counted, at), &scope, None);
            if at == 1 {
                late.build();
            }
            late.upsert_counted(&id, (&counted, at), &scope, None);
        }
        assert_same(&noted, &from_texts);
        assert_same(&late, &from_texts);
        // Written again before the first read: the new text replaces the counted one, in its place.
        noted.upsert_in("m1", "Bob moved", &scope);
        from_texts.upsert_in("m1", "Bob moved", &scope);
        assert_same(&noted, &from_texts);
        assert!(ranked(&noted, "café").is_empty());
    }

    #[test]
    fn parts_that_do_not_fit_together_are_refused() {
        let terms = || vec!["a".into(), "b".into()];
        assert!(CountedTexts::from_parts(terms(), vec![(1, 1), (1, 2)], vec![(0, 1), (1, 1)]).is_ok());
        assert!(CountedTexts::from_parts(terms(), vec![(1, 2), (1, 1)], vec![(0, 1), (1, 1)]).is_err());
        assert!(CountedTexts::from_parts(terms(), vec![(1, 3)], vec![(0, 1), (1, 1)]).is_err());
        assert!(CountedTexts::from_parts(terms(), vec![(1, 1)], vec![(0, 1), (1, 1)]).is_err());
        assert!(CountedTexts::from_parts(terms(), vec![(1, 1)], vec![(2, 1)]).is_err());
    }
}
