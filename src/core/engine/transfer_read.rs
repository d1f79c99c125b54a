//! Reading an export line by line (so that a caller can pause between lines), checking each line before
//! anything is written: its shape, ids, hashes, unit-length vectors of one length, and the header's counts.

use std::collections::HashSet;

use super::{Bundle, ExportedMemory, Line, EXPORT_VERSION, OLDEST_EXPORT_VERSION};
use crate::core::codec::vector_from_base64;
use crate::core::error::{MemoryError, Result};
use crate::core::identity::content_hash;
use crate::core::limits::MAX_ID_CHARS;
use crate::core::limits::{MAX_IMPORT_LINE_BYTES, MAX_IMPORT_MEMORIES};
use crate::core::model::types::{EventKind, MemoryItem, StoredMemory};

/// The length every vector of an import must have, and why (for the error message).
#[derive(Debug, Clone, PartialEq)]
pub struct ExpectedDimension {
    pub dimension: usize,
    /// E.g. "the memories stored here have 64".
    pub basis: String,
}

/// Reads an export line by line (so that a caller can pause between lines), checking each.
pub struct Reader<'a> {
    /// The lines after the header, numbered from 0.
    lines: std::iter::Enumerate<std::str::Lines<'a>>,
    promised: (usize, usize),
    /// Side lines the header promises.
    promised_side: usize,
    expected: Option<ExpectedDimension>,
    bundle: Bundle,
    ids: HashSet<(&'static str, String)>,
}

impl<'a> Reader<'a> {
    /// Reads the header; `expected`: the vector length the memory already keeps (else the first vector's).
    pub fn new(text: &'a str, expected: Option<ExpectedDimension>) -> Result<Self> {
        let mut lines = text.lines().enumerate();
        let Some((_, first)) = lines.by_ref().find(|(_, line)| !line.trim().is_empty()) else {
            return Err(bad(1, "empty input, expected a memwasm export".into()));
        };
        let Ok(Line::Header { version, memories, history, embedder, side }) = serde_json::from_str(first) else {
            return Err(bad(1, "not a memwasm export (the first line must be its header)".into()));
        };
        if !(OLDEST_EXPORT_VERSION..=EXPORT_VERSION).contains(&version) {
            let reads = format!("this library reads versions {OLDEST_EXPORT_VERSION} to {EXPORT_VERSION}");
            return Err(bad(1, format!("export version {version} is not supported ({reads})")));
        }
        if memories > MAX_IMPORT_MEMORIES {
            return Err(bad(1, format!("an import exceeds the limit of {MAX_IMPORT_MEMORIES} memories ({memories})")));
        }
        let (bundle, ids) = (Bundle { embedder, ..Bundle::default() }, HashSet::new());
        Ok(Self { lines, promised: (memories, history), promised_side: side, expected, bundle, ids })
    }

    /// The number of memory and history lines the header promises.
    pub fn promised(&self) -> usize {
        self.promised.0 + self.promised.1
    }

    /// Memory and history lines read so far.
    pub fn read(&self) -> usize {
        self.bundle.memories.len() + self.bundle.history.len()
    }

    /// Reads and checks the next line; `false` once there is none.
    pub fn next_line(&mut self) -> Result<bool> {
        let Some((index, text)) = self.lines.find(|(_, line)| !line.trim().is_empty()) else { return Ok(false) };
        let number = index + 1;
        if text.len() > MAX_IMPORT_LINE_BYTES {
            return Err(bad(number, format!("the line exceeds the limit of {MAX_IMPORT_LINE_BYTES} bytes")));
        }
        let line = serde_json::from_str(text).map_err(|error| bad(number, error.to_string()))?;
        match line {
            Line::Header { .. } => return Err(bad(number, "a second header".into())),
            // The header promised at most the limit: more memory lines than that is a bad file (stop reading).
            Line::Memory(_) if self.bundle.memories.len() >= MAX_IMPORT_MEMORIES => {
                return Err(bad(number, format!("an import exceeds the limit of {MAX_IMPORT_MEMORIES} memories")));
            }
            Line::Memory(memory) => {
                let memory = checked_memory(*memory).map_err(|why| bad(number, why))?;
                if let Some(vector) = &memory.embedding {
                    self.check_dimension(number, vector.len())?;
                }
                if !self.ids.insert(("memory", memory.item.id.clone())) {
                    return Err(bad(number, format!("memory {} appears twice", memory.item.id)));
                }
                self.bundle.memories.push(memory);
            }
            Line::History(record) => {
                if record.event == EventKind::None || record.memory_id.trim().is_empty() || record.id.trim().is_empty()
                {
                    return Err(bad(
                        number,
                        "a history record needs an id, a memoryId and an ADD/UPDATE/DELETE event".into(),
                    ));
                }
                if !self.ids.insert(("history", record.id.clone())) {
                    return Err(bad(number, format!("history record {} appears twice", record.id)));
                }
                self.bundle.history.push(record);
            }
            Line::Side(line) => {
                let memory = line.key.split('/').next().unwrap_or_default();
                if line.of.trim().is_empty() || memory.trim().is_empty() || memory.chars().count() > MAX_ID_CHARS {
                    return Err(bad(number, "a side record needs a kind (`of`) and a key `<memoryId>/…`".into()));
                }
                if !self.ids.insert(("side", format!("{}\n{}", line.of, line.key))) {
                    return Err(bad(number, format!("side record {} {} appears twice", line.of, line.key)));
                }
                self.bundle.side.push(line);
            }
        }
        Ok(true)
    }

    /// Every vector has the length of the memory's (or, when it has none yet, of the first in the file).
    fn check_dimension(&mut self, line: usize, found: usize) -> Result<()> {
        let expected = self.expected.get_or_insert_with(|| ExpectedDimension {
            dimension: found,
            basis: format!("the first embedding of this import, on line {line}, has {found}"),
        });
        if expected.dimension == found {
            return Ok(());
        }
        let (expected, basis) = (expected.dimension, expected.basis.clone());
        Err(MemoryError::ImportDimensionMismatch { line, found, expected, basis })
    }

    /// The bundle, once every line is read: the header's counts must match.
    pub fn finish(self) -> Result<Bundle> {
        let (memories, history) = self.promised;
        let bundle = self.bundle;
        if (bundle.memories.len(), bundle.history.len()) != (memories, history) {
            let found = format!("{} memories and {} history records", bundle.memories.len(), bundle.history.len());
            return Err(bad(
                1,
                format!("the header promises {memories} memories and {history} history records, found {found}"),
            ));
        }
        if bundle.side.len() != self.promised_side {
            let (promised, found) = (self.promised_side, bundle.side.len());
            return Err(bad(1, format!("the header promises {promised} side records, found {found}")));
        }
        Ok(bundle)
    }
}

fn checked_memory(memory: ExportedMemory) -> std::result::Result<StoredMemory, String> {
    let item = MemoryItem { score: None, ..memory.item };
    if item.id.trim().is_empty() {
        return Err("a memory needs an id".into());
    }
    if item.hash != content_hash(&item.memory) {
        return Err(format!("hash of memory {} does not match its text", item.id));
    }
    item.scope.clone().validated().map_err(|error| format!("memory {}: {error}", item.id))?;
    let embedding = memory.embedding.as_deref().map(vector_from_base64).transpose().map_err(|error| match error {
        MemoryError::InvalidInput(why) => why,
        other => other.to_string(),
    })?;
    if let Some(vector) = &embedding {
        let norm = vector.iter().map(|x| x * x).sum::<f32>().sqrt();
        if (norm - 1.0).abs() > 1e-3 {
            return Err(format!("embedding of memory {} is not unit length", item.id));
        }
    }
    Ok(StoredMemory { item, embedding })
}

fn bad(line: usize, why: String) -> MemoryError {
    MemoryError::InvalidInput(format!("import line {line}: {why}"))
}
