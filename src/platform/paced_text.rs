//! A JS string copied into wasm in turns: `TextEncoder.encodeInto` writes each slice's UTF-8 straight into
//! the Rust string's spare room, with no string of its own per slice (and no growing and shrinking it for a
//! text that is not all ASCII, as the glue's string conversion does).

use js_sys::{JsString, Uint8Array};
use wasm_bindgen::prelude::wasm_bindgen;

use crate::core::error::{MemoryError, Result};
use crate::core::pace::{aborted_error, Pace};

/// UTF-16 units of text copied into wasm at once (a few ms).
const SLICE: u32 = 1 << 16;

#[wasm_bindgen]
extern "C" {
    type TextEncoder;
    #[wasm_bindgen(constructor)]
    fn new() -> TextEncoder;
    #[wasm_bindgen(method, js_name = encodeInto)]
    fn encode_into(this: &TextEncoder, source: &JsString, destination: &Uint8Array) -> Encoded;

    type Encoded;
    #[wasm_bindgen(method, getter)]
    fn read(this: &Encoded) -> u32;
    #[wasm_bindgen(method, getter)]
    fn written(this: &Encoded) -> u32;
}

/// `text` as a Rust string, copied a slice at a time, ending turns when `pace` says so (a long text copied
/// at once is a long task of its own); `ABORTED` once the caller asks to stop. A lone surrogate becomes
/// U+FFFD, as in every conversion of a JS string.
pub async fn paced_string(text: &JsString, pace: &dyn Pace) -> Result<String> {
    let length = text.length();
    // Room for a text of ASCII and a few other characters (one copy of it all when that is not enough).
    let mut bytes: Vec<u8> = Vec::with_capacity(length as usize + length as usize / 8);
    let encoder = TextEncoder::new();
    let mut start = 0;
    loop {
        if pace.aborted() {
            return Err(aborted_error());
        }
        if start >= length {
            return String::from_utf8(bytes)
                .map_err(|_| MemoryError::InvalidInput("the text did not copy as UTF-8".into()));
        }
        let mut end = start.saturating_add(SLICE).min(length);
        if end < length && (0xD800..0xDC00).contains(&(text.char_code_at(end - 1) as u32)) {
            end -= 1; // never split a surrogate pair
        }
        if bytes.capacity() - bytes.len() < 4 {
            bytes.reserve_exact((length - start) as usize * 3); // room for the rest: at most 3 bytes a unit
        }
        let spare = bytes.spare_capacity_mut();
        // SAFETY: the view covers the Vec's spare capacity, and nothing runs in wasm (so its memory cannot
        // grow and detach the view) before `encodeInto` returns. `encodeInto` writes `written` bytes of
        // UTF-8 at the view's start, never beyond it, so those bytes are initialised before `set_len`.
        let encoded = unsafe {
            let view = Uint8Array::view_mut_raw(spare.as_mut_ptr().cast(), spare.len());
            let encoded = encoder.encode_into(&text.slice(start, end), &view);
            bytes.set_len(bytes.len() + encoded.written() as usize);
            encoded
        };
        start += encoded.read();
        if pace.due() {
            pace.yield_now().await;
        }
    }
}
