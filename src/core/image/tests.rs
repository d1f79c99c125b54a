use serde_json::json;

use super::bytes::{Reader, Writer};
use super::{decode, encode, journal_is_small, keywords, with_journal, IMAGE_FORMAT};
use crate::core::engine::memory::{fill, index_keywords};
use crate::core::keyword::KeywordIndex;
use crate::core::model::types::{MemoryItem, StoredMemory};
use crate::core::packed::Packed;
use crate::core::testing::Seeded;
use crate::core::vector_store::InMemoryVectorStore;

/// A memory with every optional field set on odd `i` (metadata, scopes, lifecycle), and a vector unless
/// `i` is a multiple of 5.
pub(super) fn memory(i: usize) -> StoredMemory {
    let full = i % 2 == 1;
    let mut record = json!({"id": format!("id-{i}"), "memory": format!("fact {i} — naïve café"), "hash": format!("h{i}"),
        "createdAt": format!("2026-01-01T00:00:{:02}.000Z", i % 60), "updatedAt": "2026-02-01T00:00:00.000Z", "userId": "u"});
    if full {
        let extra = json!({"metadata": {"role": "user", "n": i, "nested": {"x": [1.5, null, true]}}, "agentId": "a",
            "runId": "r", "memoryType": "event_log", "importance": 0.1 + i as f64 / 1000.0, "pinned": true,
            "expiresAt": "2027-01-01T00:00:00.000Z", "key": format!("k{i}"), "deletedAt": "2026-03-01T00:00:00.000Z",
            "lastAccessedAt": "2026-04-01T00:00:00.000Z", "decayedAt": "2026-05-01T00:00:00.000Z", "attributedTo": "user"});
        record.as_object_mut().unwrap().extend(extra.as_object().unwrap().clone());
    }
    let item: MemoryItem = serde_json::from_value(record).unwrap();
    let embedding = (i % 5 != 0).then(|| (0..8).map(|d| ((i * 7 + d * 3) % 11) as f32 / 11.0 - 0.4).collect());
    StoredMemory { item, embedding }
}

pub(super) fn memories(n: usize) -> Vec<StoredMemory> {
    (0..n).map(memory).collect()
}

#[test]
fn an_image_reads_back_every_field_and_vector_in_order() {
    let written = memories(12);
    let decoded = decode(encode(&written, 41).unwrap()).unwrap();
    assert_eq!(decoded.seq, 41);
    assert_eq!(decoded.into_packed().into_memories(), written);
}

#[test]
fn an_image_hands_its_vectors_out_a_chunk_at_a_time_and_a_journal_renumbers_them() {
    let written = memories(2 * super::rows::ROWS_PER_CHUNK + 37);
    assert_eq!(decode(encode(&written, 2).unwrap()).unwrap().into_packed().into_memories(), written);
    let gone: Vec<String> = written.iter().step_by(7).map(|memory| memory.item.id.clone()).collect();
    let changed = vec![memory(3), memory(5_000)];
    let packed = with_journal(decode(encode(&written, 2).unwrap()).unwrap(), &gone, changed.clone());
    assert_eq!(packed.into_memories(), read_back(&written, &gone, &changed));
}

#[test]
fn metadata_shared_by_records_reads_back_for_each_whatever_repeats() {
    // 20 distinct metadata texts, each used by three records in turn: more than the decoder keeps parsed.
    let mut written = memories(60);
    for (i, memory) in written.iter_mut().enumerate() {
        memory.item.metadata = json!({"k": i % 20, "role": "user"}).as_object().unwrap().clone().into();
    }
    written[7].item.metadata.clear();
    let decoded = decode(encode(&written, 3).unwrap()).unwrap().into_packed().into_memories();
    assert_eq!(decoded, written);
    assert_eq!(*decoded[45].item.metadata, *json!({"k": 5, "role": "user"}).as_object().unwrap());
}

#[test]
fn records_read_with_the_same_metadata_share_one_parsed_object_until_one_changes_it() {
    let mut written = memories(4);
    for memory in &mut written {
        memory.item.metadata = json!({"source": "chat", "role": "user"}).as_object().unwrap().clone().into();
    }
    let mut decoded = decode(encode(&written, 1).unwrap()).unwrap().into_packed().into_memories();
    assert!(std::ptr::eq(&*decoded[0].item.metadata, &*decoded[3].item.metadata));
    decoded[3].item.metadata.insert("role".into(), json!("assistant"));
    assert_eq!(decoded[0].item.metadata.get("role"), Some(&json!("user")));
    assert_eq!(decoded[3].item.metadata.get("role"), Some(&json!("assistant")));
    assert_eq!(decoded[..3], written[..3]);
}

#[test]
fn an_empty_store_has_an_image() {
    let decoded = decode(encode(&[], 0).unwrap()).unwrap();
    assert!(decoded.into_packed().into_memories().is_empty());
}

#[test]
fn vectors_of_different_lengths_have_no_image() {
    let mut written = memories(3);
    written[2].embedding = Some(vec![1.0; 3]);
    assert!(encode(&written, 1).is_none());
}

#[test]
fn a_store_too_large_has_no_image() {
    assert!(super::fits(100_000, 1_024));
    assert!(!super::fits(100_000, 1_536));
    assert!(!super::fits(usize::MAX, 2));
}

#[test]
fn a_torn_image_is_rejected_at_every_length() {
    let bytes = encode(&memories(6), 7).unwrap();
    for length in 0..bytes.len() {
        assert!(
            decode(bytes[..length].to_vec()).is_err(),
            "an image cut at {length} of {} bytes was used",
            bytes.len()
        );
    }
    let mut longer = bytes.clone();
    longer.push(0);
    assert!(decode(longer).is_err());
}

#[test]
fn an_image_with_any_byte_altered_is_rejected() {
    let bytes = encode(&memories(4), 7).unwrap();
    for at in 0..bytes.len() {
        let mut altered = bytes.clone();
        altered[at] ^= 0x20;
        assert!(decode(altered).is_err(), "byte {at} altered and the image was still used");
    }
}

#[test]
fn an_image_of_another_format_or_version_is_rejected_and_says_so() {
    let bytes = encode(&memories(2), 1).unwrap();
    let mut other_format = bytes.clone();
    other_format[4..8].copy_from_slice(&(IMAGE_FORMAT + 1).to_le_bytes());
    let why = decode(other_format).err().unwrap();
    assert!(why.contains(&format!("format {}", IMAGE_FORMAT + 1)), "{why}");
    let version = env!("CARGO_PKG_VERSION");
    let at = bytes.windows(version.len()).position(|w| w == version.as_bytes()).unwrap();
    let mut other_version = bytes.clone();
    other_version[at] = b'9';
    assert!(decode(other_version).err().unwrap().contains("written by memwasm 9"));
    assert_eq!(decode(b"not an image at all".to_vec()).err().unwrap(), "not a memwasm image");
}

/// What reading every record in stored order gives after `gone` were deleted and `changed` written: an
/// update keeps its place, a new (or deleted and written again) record goes last.
fn read_back(image: &[StoredMemory], gone: &[String], changed: &[StoredMemory]) -> Vec<StoredMemory> {
    let mut rows: Vec<StoredMemory> = image.iter().filter(|m| !gone.contains(&m.item.id)).cloned().collect();
    for memory in changed {
        match rows.iter_mut().find(|row| row.item.id == memory.item.id) {
            Some(row) => *row = memory.clone(),
            None => rows.push(memory.clone()),
        }
    }
    rows
}

#[test]
fn the_journal_brings_an_image_to_what_the_records_say() {
    let image = memories(10);
    let gone = vec!["id-3".to_string(), "id-7".to_string(), "id-unknown".to_string()];
    let mut updated = memory(4);
    updated.item.memory = "fact 4, changed".into();
    updated.embedding = Some(vec![0.5; 8]);
    let mut unvectored = memory(6);
    unvectored.embedding = None;
    let changed = vec![updated, unvectored, memory(3), memory(20), memory(25)];
    let packed = with_journal(decode(encode(&image, 5).unwrap()).unwrap(), &gone, changed.clone());
    assert_eq!(packed.into_memories(), read_back(&image, &gone, &changed));
}

/// A random image of up to 11 memories, and a journal: up to 3 ids deleted (some of them never stored) and
/// up to 4 memories written (rewritten or new) since.
fn random_journal(random: &mut Seeded, round: usize) -> (Vec<StoredMemory>, Vec<String>, Vec<StoredMemory>) {
    let image: Vec<StoredMemory> = (0..random.below(12)).map(|i| memory(i + round)).collect();
    let ids: Vec<String> = (0..15).map(|i| format!("id-{}", i + round)).collect();
    let gone: Vec<String> = (0..random.below(4)).map(|_| ids[random.below(15)].clone()).collect();
    let mut changed: Vec<StoredMemory> = Vec::new();
    for _ in 0..random.below(5) {
        let mut memory = memory(random.below(15) + round);
        memory.item.memory = format!("rewritten in round {round}");
        if !changed.iter().any(|c| c.item.id == memory.item.id) {
            changed.push(memory);
        }
    }
    (image, gone, changed)
}

#[test]
fn random_journals_read_back_as_the_records_do() {
    let mut random = Seeded(0x5eed);
    for round in 0..200 {
        let (image, gone, changed) = random_journal(&mut random, round);
        // A memory both deleted and written since the image was deleted first: it is written as new.
        let expected = read_back(&image, &gone, &changed);
        let packed = with_journal(decode(encode(&image, 1).unwrap()).unwrap(), &gone, changed);
        assert_eq!(packed.into_memories(), expected, "round {round}");
    }
}

#[test]
fn a_journal_is_small_up_to_256_entries_or_a_sixteenth_of_the_store() {
    assert!(journal_is_small(256, 0));
    assert!(!journal_is_small(257, 0));
    assert!(journal_is_small(257, 16 * 257));
    assert!(journal_is_small(6_250, 100_000));
    assert!(!journal_is_small(6_251, 100_000));
}

/// Each query's keyword ranking (score, id) in `keywords`.
fn rankings(keywords: &KeywordIndex) -> Vec<Vec<(String, String)>> {
    let all = |_: &str| true;
    let queries = ["fact", "naïve café", "rewritten round", "changed", "user fact 4", "3"];
    let ranked = |query: &str| keywords.search(query, 100, &all, &all).into_iter();
    queries
        .iter()
        .map(|query| ranked(query).map(|(score, id)| (format!("{score:.12}"), id.to_owned())).collect())
        .collect()
}

/// The keyword index opening fills from `packed` (the image's counted terms where it has them).
fn filled(packed: Packed) -> KeywordIndex {
    let mut keywords = KeywordIndex::default();
    fill(&mut InMemoryVectorStore::default(), &mut keywords, packed).unwrap();
    keywords
}

/// The keyword index of `memories`' texts, indexed one by one.
fn from_texts(memories: &[StoredMemory]) -> KeywordIndex {
    let mut keywords = KeywordIndex::default();
    memories.iter().for_each(|memory| index_keywords(&mut keywords, &memory.item));
    keywords
}

#[test]
fn an_image_keeps_its_records_keyword_terms_and_opening_ranks_as_their_texts_do() {
    let mut written = memories(40);
    written[9].item.memory = "東京で寿司を食べた — Zoë's café, 3 times".into();
    let packed = decode(encode(&written, 4).unwrap()).unwrap().into_packed();
    let counted = packed.counted.as_ref().unwrap();
    assert_eq!(counted.texts.len(), written.len());
    assert!(counted.of_memory.iter().enumerate().all(|(at, text)| *text == Some(at as u32)));
    let keywords = filled(packed);
    assert_eq!(keywords.unindexed(), written.len(), "noted, not indexed, until the first read");
    assert_eq!(rankings(&keywords), rankings(&from_texts(&written)));
    assert_eq!(keywords.term_count(), from_texts(&written).term_count());
}

#[test]
fn after_a_journal_a_changed_memory_is_found_by_its_new_text_only() {
    let mut random = Seeded(0x7e57);
    for round in 0..100 {
        let (image, gone, changed) = random_journal(&mut random, round);
        let expected = read_back(&image, &gone, &changed);
        let packed = with_journal(decode(encode(&image, 1).unwrap()).unwrap(), &gone, changed);
        assert_eq!(rankings(&filled(packed)), rankings(&from_texts(&expected)), "round {round}");
    }
}

#[test]
fn a_keyword_section_that_does_not_fit_its_records_is_rejected() {
    let section = |terms: &[&str], records: u32, texts: &[(u32, &[(u32, u32)])]| {
        let mut bytes = Writer::default();
        bytes.u32(terms.len() as u32);
        terms.iter().for_each(|term| bytes.str(term));
        bytes.u32(records);
        for (len, pairs) in texts {
            bytes.varint(*len);
            bytes.varint(pairs.len() as u32);
            pairs.iter().for_each(|(term, tf)| (bytes.varint(*term), bytes.varint(*tf)).1);
        }
        bytes.bytes
    };
    let read = |bytes: Vec<u8>, records| keywords::read(&mut Reader::new(&bytes), records).map(|c| c.len());
    assert_eq!(read(section(&["cafe", "zoe"], 2, &[(3, &[(0, 2), (1, 1)]), (0, &[])]), 2), Ok(2));
    assert!(read(section(&["cafe"], 1, &[(1, &[(1, 1)])]), 1).unwrap_err().contains("names no term"));
    assert!(read(section(&["cafe"], 2, &[(1, &[(0, 1)])]), 1).unwrap_err().contains("not those of its records"));
    assert!(read(section(&["cafe"], 1, &[(1, &[(0, 1)])]), 2).is_err(), "fewer records than the image has");
    assert!(read(section(&["cafe"], 1, &[(1, &[(0, 1), (0, 1)])])[..10].to_vec(), 1).is_err(), "cut short");
}

#[test]
fn numbers_of_every_width_read_back_and_an_overlong_one_is_rejected() {
    let values = [0, 1, 127, 128, 16_383, 16_384, 1 << 21, (1 << 28) - 1, 1 << 28, u32::MAX];
    let mut bytes = Writer::default();
    values.iter().for_each(|value| bytes.varint(*value));
    let mut input = Reader::new(&bytes.bytes);
    assert_eq!(values.map(|_| input.varint().unwrap()), values);
    assert!(input.at_end());
    for overlong in [&[0xff, 0xff, 0xff, 0xff, 0x10][..], &[0x80, 0x80, 0x80, 0x80, 0x80, 0x00], &[0x80]] {
        assert!(Reader::new(overlong).varint().is_err(), "{overlong:?}");
    }
}
