//! Writing entries of the sync log: what one commit changed (memories as they are now, with their vectors;
//! the ids deleted; history records; graph writes; the side records kept per memory that exports carry, such
//! as a memory's sources), in the export's shapes, as the JSON text the app
//! encrypts. A commit larger than [`MAX_ENTRY_BYTES`] is split into several entries. Each record is
//! serialised once, straight into its entry's text (`entry` reads them back).

use serde::Serialize;

use crate::core::codec::vector_to_base64;
use crate::core::engine::embedding_model::EmbeddingModel;
use crate::core::engine::transfer::{ExportedMemory, SideLine};
use crate::core::model::types::MemoryItem;
use crate::core::storage::Changeset;

/// The format this library writes, and the newest it reads.
pub const ENTRY_VERSION: u32 = 1;

/// About how many bytes of JSON one entry holds at most (one record larger than this goes alone).
pub const MAX_ENTRY_BYTES: usize = 96 * 1024;

/// The lists of an entry, in the order they are written.
const LISTS: [&str; 6] = ["memories", "deletes", "history", "graph", "graphDeletes", "side"];

/// One entry as written: its text, and the memory ids and graph keys it changes.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Written {
    pub text: String,
    pub ids: Vec<String>,
    pub keys: Vec<String>,
}

/// `changes` as entries of about `MAX_ENTRY_BYTES` each (none when it changes nothing that syncs);
/// `embedder` is the model the vectors come from, when known; side records of `side_kinds` travel too.
pub fn write_entries(changes: &Changeset, embedder: Option<&EmbeddingModel>, side_kinds: &[&str]) -> Vec<Written> {
    let header = match embedder.and_then(|model| serde_json::to_string(model).ok()) {
        Some(model) => format!("{{\"v\":{ENTRY_VERSION},\"embedder\":{model}"),
        None => format!("{{\"v\":{ENTRY_VERSION}"),
    };
    let mut texts = Texts { header, ..Texts::default() };
    for memory in &changes.upserts {
        let item = MemoryItem { score: None, fused_score: None, ..memory.item.clone() };
        let line = ExportedMemory { item, embedding: memory.embedding.as_deref().map(vector_to_base64) };
        texts.add(0, &line, Some(&memory.item.id), None);
    }
    changes.deletes.iter().for_each(|id| texts.add(1, id, Some(id), None));
    changes.history.iter().for_each(|record| texts.add(2, record, None, None));
    changes.graph.upserts.iter().for_each(|record| texts.add(3, record, None, Some(&record.key())));
    changes.graph.deletes.iter().for_each(|key| texts.add(4, key, None, Some(key)));
    for write in changes.side.iter().filter(|write| side_kinds.contains(&write.kind.as_str())) {
        let Some(value) = write.value.clone() else { continue };
        texts.add(5, &SideLine { of: write.kind.clone(), key: write.key.clone(), value }, None, None);
    }
    texts.close();
    texts.done
}

/// The entry being filled (its lists' JSON, comma-separated) and those filled already.
#[derive(Default)]
struct Texts {
    header: String,
    lists: [String; 6],
    bytes: usize,
    open: Written,
    done: Vec<Written>,
}

impl Texts {
    fn add<T: Serialize + ?Sized>(&mut self, list: usize, record: &T, id: Option<&str>, key: Option<&str>) {
        let text = serde_json::to_string(record).unwrap_or_default();
        if self.bytes > 0 && self.bytes + text.len() > MAX_ENTRY_BYTES {
            self.close();
        }
        let into = &mut self.lists[list];
        if !into.is_empty() {
            into.push(',');
        }
        into.push_str(&text);
        self.bytes += text.len() + 1;
        self.open.ids.extend(id.map(str::to_owned));
        self.open.keys.extend(key.map(str::to_owned));
    }

    /// Ends the entry being filled, if it holds anything.
    fn close(&mut self) {
        if self.bytes == 0 {
            return;
        }
        let mut text = self.header.clone();
        for (name, list) in LISTS.iter().zip(self.lists.iter_mut()) {
            if !list.is_empty() {
                text.push_str(&format!(",\"{name}\":["));
                text.push_str(list);
                text.push(']');
                list.clear();
            }
        }
        text.push('}');
        self.open.text = text;
        self.done.push(std::mem::take(&mut self.open));
        self.bytes = 0;
    }
}
