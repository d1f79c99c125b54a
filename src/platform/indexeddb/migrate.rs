//! The version 5 upgrade of a database that holds memories: each record's inline `embedding` moves into
//! `vectors` chunks (see `chunk`) and the record keeps the chunk's number instead. It runs inside the
//! upgrade transaction, a page of records at a time, so the database is upgraded whole or, should anything
//! fail (the transaction is then aborted and the open fails), left at its old version untouched.
//!
//! A record whose embedding does not decode stays as it is: it is skipped with a warning at each open, as
//! before (nothing is deleted behind the user's back).

use std::collections::HashMap;

use idb::ObjectStore;
use js_sys::{Reflect, Uint8Array};
use wasm_bindgen::{JsCast, JsValue};
use web_sys::IdbObjectStore;

use super::chunk::Chunk;
use super::outcome::from_thrown;
use super::pages::each_page;
use crate::core::codec::vector_from_bytes;
use crate::core::error::Result;

/// Records read per request.
const PAGE: u32 = 1024;
const CONTEXT: &str = "the upgrade to schema version 5 was rolled back";

/// Starts moving the vectors of `memories`' records into `vectors`, both stores of the upgrade transaction
/// (its requests keep the transaction alive; a failure aborts it).
pub fn vectors_out_of_records(memories: ObjectStore, vectors: ObjectStore) -> std::result::Result<(), idb::Error> {
    let memories = IdbObjectStore::from(memories);
    let vectors = IdbObjectStore::from(vectors);
    wasm_bindgen_futures::spawn_local(async move {
        if let Err(error) = migrate(&memories, &vectors).await {
            web_sys::console::warn_1(&JsValue::from_str(&format!("memwasm: {error}")));
            let _ = memories.transaction().abort();
        }
    });
    Ok(())
}

async fn migrate(memories: &IdbObjectStore, vectors: &IdbObjectStore) -> Result<()> {
    let mut open: HashMap<usize, Chunk> = HashMap::new();
    let mut next = 0u32;
    each_page(memories, "id", PAGE, CONTEXT, &mut |page| {
        for record in page.iter() {
            let Some(vector) = take_vector(&record) else { continue };
            let chunk = open.entry(vector.len()).or_insert_with(|| fresh(&mut next, vector.len()));
            if chunk.is_full() {
                let full = std::mem::replace(chunk, fresh(&mut next, vector.len()));
                put(vectors, &full)?;
            }
            let id = Reflect::get(&record, &"id".into()).ok().and_then(|id| id.as_string()).unwrap_or_default();
            chunk.push(&id, &vector);
            super::records::place(&record, chunk.key)?;
            memories.put(&record).map_err(|thrown| from_thrown(thrown, CONTEXT))?;
        }
        Ok(())
    })
    .await?;
    open.values().try_for_each(|chunk| put(vectors, chunk))
}

fn fresh(next: &mut u32, dim: usize) -> Chunk {
    *next += 1;
    Chunk::new(*next - 1, dim)
}

fn put(vectors: &IdbObjectStore, chunk: &Chunk) -> Result<()> {
    vectors.put(&chunk.to_js()?).map(drop).map_err(|thrown| from_thrown(thrown, CONTEXT))
}

/// Takes the inline `embedding` out of `record` when it holds a readable vector, and returns it.
fn take_vector(record: &JsValue) -> Option<Vec<f32>> {
    let key = JsValue::from_str("embedding");
    let bytes = Reflect::get(record, &key).ok()?.dyn_into::<Uint8Array>().ok()?;
    let vector = vector_from_bytes(&bytes.to_vec()).ok()?;
    Reflect::delete_property(record.unchecked_ref::<js_sys::Object>(), &key).ok()?;
    Some(vector)
}
