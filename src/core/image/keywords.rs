//! The image's keyword section: every record's keyword terms, counted when the image is written, so that
//! opening indexes them without tokenizing a text (`keyword::CountedTexts`). Layout: the term count (u32)
//! and each term (text), the record count (u32), then per record its length in terms, its pair count and
//! each (term number, frequency) pair, all LEB128.

use super::bytes::{Reader, Rejected, Writer};
use crate::core::keyword::CountedTexts;
use crate::core::model::types::StoredMemory;
use crate::core::query_speaker::keyword_text;

/// Counts the keyword terms of `memories` (what the index reads of each) and writes them.
pub fn write(image: &mut Writer, memories: &[StoredMemory]) {
    let counted = CountedTexts::count(memories.iter().map(|memory| keyword_text(&memory.item).0));
    let (terms, texts, pairs) = counted.parts();
    image.u32(terms.len() as u32);
    terms.iter().for_each(|term| image.str(term));
    image.u32(texts.len() as u32);
    let mut start = 0;
    for &(len, end) in texts {
        image.varint(len);
        image.varint(end - start);
        for &(term, tf) in &pairs[start as usize..end as usize] {
            image.varint(term);
            image.varint(tf);
        }
        start = end;
    }
}

/// The counted terms of an image's `records` records, or why they cannot be used.
pub fn read(input: &mut Reader, records: usize) -> Result<CountedTexts, Rejected> {
    let term_count = input.u32()? as usize;
    let mut terms = Vec::with_capacity(term_count.min(input.remaining()));
    for _ in 0..term_count {
        terms.push(input.str_ref()?.into());
    }
    if input.u32()? as usize != records {
        return Err("its keyword terms are not those of its records".into());
    }
    let mut texts = Vec::with_capacity(records);
    let mut pairs = Vec::with_capacity(records.saturating_mul(8).min(input.remaining()));
    for _ in 0..records {
        let len = input.varint()?;
        for _ in 0..input.varint()? {
            pairs.push((input.varint()?, input.varint()?));
        }
        let end = u32::try_from(pairs.len()).map_err(|_| "too many keyword terms".to_string())?;
        texts.push((len, end));
    }
    CountedTexts::from_parts(terms, texts, pairs)
}
