//! A chunk of the `vectors` store (schema version 5): the vectors of up to [`rows_for`] memories of one
//! dimension, stored as one record `{chunk, dim, ids, vectors}`: `chunk` its key (a number), `ids` the
//! memories' ids as a JSON array string (one string to clone and copy, not one per id), `vectors` their
//! `f32` values row after row in one `Float32Array` (one copy into wasm). Opening reads all chunks with one
//! `getAll`, a few large buffers instead of one structured clone per memory.
//!
//! Decoding never panics: a chunk that does not decode is reported as `Err(why)` for the caller to skip.

use js_sys::{Float32Array, Object, Reflect};
use wasm_bindgen::{JsCast, JsValue};

use crate::core::error::{MemoryError, Result};

/// About how many bytes of vectors one chunk holds, so one add rewrites a bounded record (384-d: 341 rows).
pub const CHUNK_BYTES: usize = 512 * 1024;
/// The key path of the `vectors` store: each chunk's number.
pub const KEY: &str = "chunk";

/// How many vectors of `dim` values a chunk holds.
pub fn rows_for(dim: usize) -> usize {
    (CHUNK_BYTES / (dim.max(1) * 4)).max(1)
}

/// The vectors of one chunk, in row order.
#[derive(Debug, Clone, PartialEq)]
pub struct Chunk {
    pub key: u32,
    pub dim: usize,
    pub ids: Vec<String>,
    pub values: Vec<f32>,
}

impl Chunk {
    /// An empty chunk `key` for vectors of `dim` values.
    pub fn new(key: u32, dim: usize) -> Self {
        Self { key, dim, ids: Vec::new(), values: Vec::new() }
    }

    /// True when no vector fits anymore.
    pub fn is_full(&self) -> bool {
        self.ids.len() >= rows_for(self.dim)
    }

    /// The row of memory `id` (the last one, should an id ever be stored twice).
    pub fn find(&self, id: &str) -> Option<usize> {
        self.ids.iter().rposition(|stored| stored == id)
    }

    /// Appends the vector of memory `id` (of this chunk's dimension).
    pub fn push(&mut self, id: &str, vector: &[f32]) {
        self.ids.push(id.to_owned());
        self.values.extend_from_slice(vector);
    }

    /// Overwrites the vector of memory `id` in place; false when it is not here or has another dimension.
    pub fn replace(&mut self, id: &str, vector: &[f32]) -> bool {
        match self.find(id) {
            Some(row) if vector.len() == self.dim => {
                self.values[row * self.dim..(row + 1) * self.dim].copy_from_slice(vector);
                true
            }
            _ => false,
        }
    }

    /// Removes every row of memory `id`; true when there was one.
    pub fn remove(&mut self, id: &str) -> bool {
        let mut removed = false;
        while let Some(row) = self.find(id) {
            self.ids.remove(row);
            self.values.drain(row * self.dim..(row + 1) * self.dim);
            removed = true;
        }
        removed
    }

    /// The chunk as a record of the `vectors` store.
    pub fn to_js(&self) -> Result<JsValue> {
        let ids = serde_json::to_string(&self.ids)
            .map_err(|error| MemoryError::Storage(format!("cannot encode a vector chunk: {error}")))?;
        let record = Object::new();
        let fields: [(&str, JsValue); 4] = [
            (KEY, JsValue::from(self.key)),
            ("dim", JsValue::from(self.dim as u32)),
            ("ids", JsValue::from_str(&ids)),
            ("vectors", Float32Array::from(self.values.as_slice()).into()),
        ];
        for (name, value) in fields {
            Reflect::set(&record, &JsValue::from_str(name), &value)
                .map_err(|_| MemoryError::Storage(format!("cannot encode a vector chunk's {name}")))?;
        }
        Ok(record.into())
    }

    /// The chunk a record of the `vectors` store holds.
    pub fn from_js(record: &JsValue) -> std::result::Result<Self, String> {
        JsChunk::from_js(record).map(|chunk| {
            // A same-type copy moves the bytes as they are: little-endian f32, as wasm memory holds them.
            let values = chunk.values.to_vec();
            Self { key: chunk.key, dim: chunk.dim, ids: chunk.ids, values }
        })
    }
}

/// A chunk as read, its values still in JS: opening copies them into the index row by row.
pub struct JsChunk {
    pub key: u32,
    pub dim: usize,
    pub ids: Vec<String>,
    /// `ids.len() · dim` values.
    pub values: Float32Array,
}

impl JsChunk {
    /// The chunk a record of the `vectors` store holds.
    pub fn from_js(record: &JsValue) -> std::result::Result<Self, String> {
        let field = |name: &str| Reflect::get(record, &JsValue::from_str(name)).unwrap_or(JsValue::UNDEFINED);
        let key = field(KEY).as_f64().filter(|key| key.fract() == 0.0 && (0.0..=f64::from(u32::MAX)).contains(key));
        let key = key.ok_or("a vector chunk without a valid key")? as u32;
        let dim = field("dim").as_f64().filter(|dim| dim.fract() == 0.0 && *dim >= 1.0);
        let dim = dim.ok_or_else(|| format!("vector chunk {key}: no valid dim"))? as usize;
        let ids = field("ids").as_string().ok_or_else(|| format!("vector chunk {key}: ids is not a string"))?;
        let ids: Vec<String> = serde_json::from_str(&ids).map_err(|error| format!("vector chunk {key}: {error}"))?;
        let values = field("vectors")
            .dyn_into::<Float32Array>()
            .map_err(|_| format!("vector chunk {key}: vectors is not a Float32Array"))?;
        if values.length() as usize != ids.len() * dim {
            return Err(format!("vector chunk {key}: {} values for {} rows of {dim}", values.length(), ids.len()));
        }
        Ok(Self { key, dim, ids, values })
    }
}

/// A 64-bit hash of every bit of `vector`: a commit skips reading and rewriting the chunk of a memory whose
/// vector is unchanged (an update of its metadata, a noted access). Each step is a bijection of its lane,
/// so vectors that differ in one value never collide. Plain locals: it runs over every vector at open.
pub fn fingerprint(vector: &[f32]) -> u64 {
    const PRIME: u64 = 0x0000_0100_0000_01b3;
    let bits = |x: &f32| u64::from(x.to_bits());
    let (mut a, mut b) = (0xcbf2_9ce4_8422_2325u64, 0x8422_2325_cbf2_9ce4u64);
    let mut quads = vector.chunks_exact(4);
    for quad in &mut quads {
        if let [w, x, y, z] = quad {
            a = (a ^ (bits(w) | bits(x) << 32)).wrapping_mul(PRIME);
            b = (b ^ (bits(y) | bits(z) << 32)).wrapping_mul(PRIME);
        }
    }
    for x in quads.remainder() {
        a = (a ^ bits(x)).wrapping_mul(PRIME);
    }
    ((a ^ vector.len() as u64).wrapping_mul(PRIME).rotate_left(29) ^ b).wrapping_mul(PRIME)
}
