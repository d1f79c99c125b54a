//! An open image's bytes in a JS buffer (IndexedDB's record, a Durable Object's part), read a part at a
//! time: decoding copies the records' part into wasm and the vectors a chunk at a time, never the whole.

use js_sys::Uint8Array;

use crate::core::image::ImageBytes;

/// Bytes in a JS `Uint8Array`.
pub struct JsBytes(pub Uint8Array);

impl ImageBytes for JsBytes {
    fn size(&self) -> usize {
        self.0.length() as usize
    }

    fn copy_to(&self, at: usize, out: &mut [u8]) {
        self.0.subarray(at as u32, (at + out.len()) as u32).copy_to(out);
    }

    fn to_vec(&self, at: usize, length: usize) -> Vec<u8> {
        self.0.subarray(at as u32, (at + length) as u32).to_vec()
    }
}
