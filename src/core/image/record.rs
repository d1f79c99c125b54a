//! One memory record in the image: every field of `MemoryItem` in a fixed order (metadata as its JSON
//! text, the memory type as its place in `MemoryType::ALL`), so reading a record is a walk over lengths, not a parse. The destructuring below names every
//! field: a field added to `MemoryItem` does not compile until it is written here too.

use serde_json::Value;

use super::bytes::{Reader, Rejected, Writer};
use crate::core::model::lifecycle::Lifecycle;
use crate::core::model::memory_type::MemoryType;
use crate::core::model::scope::Scope;
use crate::core::model::types::MemoryItem;
use crate::core::model::SharedMetadata;

/// Appends `item` (its search-only scores are not stored).
pub fn write_item(out: &mut Writer, item: &MemoryItem) {
    let MemoryItem { id, memory, hash, metadata, score: _, fused_score: _, created_at, updated_at, scope, lifecycle } =
        item;
    let Scope { user_id, agent_id, run_id } = scope;
    let Lifecycle {
        memory_type,
        importance,
        pinned,
        expires_at,
        key,
        deleted_at,
        last_accessed_at,
        decayed_at,
        attributed_to,
    } = lifecycle;
    for text in [id, memory, hash, created_at, updated_at] {
        out.str(text);
    }
    out.str(&if metadata.is_empty() { String::new() } else { serde_json::to_string(&**metadata).unwrap_or_default() });
    for text in [user_id, agent_id, run_id] {
        out.opt_str(text.as_deref());
    }
    out.u8(MemoryType::ALL.iter().position(|kind| kind == memory_type).unwrap_or(0) as u8);
    out.f64(*importance);
    out.u8(*pinned as u8);
    for text in [expires_at, key, deleted_at, last_accessed_at, decayed_at, attributed_to] {
        out.opt_str(text.as_deref());
    }
}

/// Reads back one item `write_item` wrote, its metadata through `seen`.
pub fn read_item<'a>(input: &mut Reader<'a>, seen: &mut SeenMetadata<'a>) -> Result<MemoryItem, Rejected> {
    let (id, memory, hash, created_at, updated_at) =
        (input.str()?, input.str()?, input.str()?, input.str()?, input.str()?);
    let metadata = seen.metadata(input.str_ref()?)?;
    let scope = Scope { user_id: input.opt_str()?, agent_id: input.opt_str()?, run_id: input.opt_str()? };
    let kind = input.u8()?;
    let memory_type = *MemoryType::ALL.get(kind as usize).ok_or_else(|| format!("memory {id}: unknown type {kind}"))?;
    let lifecycle = Lifecycle {
        memory_type,
        importance: input.f64()?,
        pinned: input.u8()? == 1,
        expires_at: input.opt_str()?,
        key: input.opt_str()?,
        deleted_at: input.opt_str()?,
        last_accessed_at: input.opt_str()?,
        decayed_at: input.opt_str()?,
        attributed_to: input.opt_str()?,
    };
    Ok(MemoryItem {
        id,
        memory,
        hash,
        metadata,
        score: None,
        fused_score: None,
        created_at,
        updated_at,
        scope,
        lifecycle,
    })
}

/// How many distinct metadata texts [`SeenMetadata`] keeps.
const SEEN: usize = 16;

/// The metadata texts read last, parsed: records written together often share their metadata (a source,
/// a role, a session), and those records then share one parsed object.
#[derive(Default)]
pub struct SeenMetadata<'a> {
    kept: Vec<(&'a str, SharedMetadata)>,
    /// The entry the next new text replaces, once `kept` is full.
    next: usize,
}

impl<'a> SeenMetadata<'a> {
    /// The metadata JSON object written by `write_item` (empty text: no metadata).
    fn metadata(&mut self, text: &'a str) -> Result<SharedMetadata, Rejected> {
        if text.is_empty() {
            return Ok(SharedMetadata::new());
        }
        if let Some((_, parsed)) = self.kept.iter().find(|(kept, _)| *kept == text) {
            return Ok(parsed.clone());
        }
        let Ok(Value::Object(parsed)) = serde_json::from_str(text) else {
            return Err("a record's metadata is not a JSON object".into());
        };
        let parsed = SharedMetadata::from(parsed);
        if self.kept.len() < SEEN {
            self.kept.push((text, parsed.clone()));
        } else {
            self.kept[self.next] = (text, parsed.clone());
            self.next = (self.next + 1) % SEEN;
        }
        Ok(parsed)
    }
}
