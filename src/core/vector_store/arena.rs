//! The vectors of all slots in one flat allocation: row `i` starts at `i · stride`, zero-padded to a
//! multiple of [`LANES`]. Rows are f32, or int8 codes with one scale each (a quarter of the memory).

use super::kernels::{dot_f32, dot_i8, LANES};
use super::quantize::{decode, encode, QueryCodes};
use super::top_k::TopK;
use super::{normalized, Quantization};

#[derive(Debug)]
enum Rows {
    F32(Vec<f32>),
    Int8 { codes: Vec<i8>, scales: Vec<f32> },
}

/// Row storage. The dimension is fixed by the first vector and forgotten on `clear`.
#[derive(Debug)]
pub struct Arena {
    rows: Rows,
    dimension: Option<usize>,
    stride: usize,
    len: usize,
    /// Rows to make room for once the dimension is known.
    reserved: usize,
}

/// A query prepared for one scan: padded, and quantized in int8 mode.
pub struct PreparedQuery {
    padded: Vec<f32>,
    codes: Option<QueryCodes>,
}

impl Arena {
    pub fn new(quantization: Quantization) -> Self {
        let rows = match quantization {
            Quantization::None => Rows::F32(Vec::new()),
            Quantization::Int8 => Rows::Int8 { codes: Vec::new(), scales: Vec::new() },
        };
        Self { rows, dimension: None, stride: 0, len: 0, reserved: 0 }
    }

    pub fn quantization(&self) -> Quantization {
        match self.rows {
            Rows::F32(_) => Quantization::None,
            Rows::Int8 { .. } => Quantization::Int8,
        }
    }

    /// The vector length, once a vector was stored.
    pub fn dimension(&self) -> Option<usize> {
        self.dimension
    }

    /// Fixes the dimension (the caller checked it against an earlier one), backfilling zero rows.
    pub fn set_dimension(&mut self, dimension: usize) {
        if self.dimension.is_none() {
            self.dimension = Some(dimension);
            self.stride = dimension.div_ceil(LANES) * LANES;
            self.reserve(self.reserved.saturating_sub(self.len));
            self.resize(self.len);
        }
    }

    /// Makes room for `additional` more rows (once the dimension is known, if it is not yet).
    pub fn reserve(&mut self, additional: usize) {
        self.reserved = self.reserved.max(additional);
        if self.dimension.is_none() {
            return;
        }
        let (rows, values) = (additional, additional * self.stride);
        match &mut self.rows {
            Rows::F32(data) => data.reserve_exact(values),
            Rows::Int8 { codes, scales } => {
                codes.reserve_exact(values);
                scales.reserve_exact(rows);
            }
        }
    }

    /// Appends a zero row.
    pub fn push(&mut self) {
        self.len += 1;
        self.resize(self.len);
    }

    /// Writes `vector` (of the arena's dimension) into row `slot`, or zeroes it.
    pub fn write(&mut self, slot: usize, vector: Option<&[f32]>) {
        let range = slot * self.stride..(slot + 1) * self.stride;
        let dimension = self.dimension.unwrap_or(0);
        match &mut self.rows {
            Rows::F32(rows) => {
                let row = &mut rows[range];
                row.fill(0.0);
                if let Some(vector) = vector {
                    row[..dimension].copy_from_slice(vector);
                }
            }
            Rows::Int8 { codes, scales } => {
                let row = &mut codes[range];
                row.fill(0);
                scales[slot] = vector.map_or(0.0, |vector| encode(vector, &mut row[..dimension]));
            }
        }
    }

    /// Row `slot` as a unit f32 vector (dequantised and renormalised in int8 mode), without padding.
    pub fn vector(&self, slot: usize) -> Vec<f32> {
        let dimension = self.dimension.unwrap_or(0);
        let start = slot * self.stride;
        match &self.rows {
            Rows::F32(rows) => rows[start..start + dimension].to_vec(),
            Rows::Int8 { codes, scales } => {
                let mut out = vec![0.0; dimension];
                decode(&codes[start..start + dimension], scales[slot], &mut out);
                normalized(out.clone()).unwrap_or(out)
            }
        }
    }

    /// Moves row `from` to `to` (`to < from`), for compaction.
    pub fn move_row(&mut self, from: usize, to: usize) {
        let stride = self.stride;
        match &mut self.rows {
            Rows::F32(rows) => rows.copy_within(from * stride..(from + 1) * stride, to * stride),
            Rows::Int8 { codes, scales } => {
                codes.copy_within(from * stride..(from + 1) * stride, to * stride);
                scales[to] = scales[from];
            }
        }
    }

    /// Keeps the first `len` rows.
    pub fn truncate(&mut self, len: usize) {
        self.len = len.min(self.len);
        self.resize(self.len);
        match &mut self.rows {
            Rows::F32(rows) => rows.shrink_to(rows.len() * 2),
            Rows::Int8 { codes, scales } => {
                codes.shrink_to(codes.len() * 2);
                scales.shrink_to(scales.len() * 2);
            }
        }
    }

    /// Bytes allocated for vectors.
    pub fn bytes(&self) -> usize {
        match &self.rows {
            Rows::F32(rows) => rows.capacity() * 4,
            Rows::Int8 { codes, scales } => codes.capacity() + scales.capacity() * 4,
        }
    }

    fn resize(&mut self, len: usize) {
        let values = len * self.stride;
        match &mut self.rows {
            Rows::F32(rows) => rows.resize(values, 0.0),
            Rows::Int8 { codes, scales } => {
                codes.resize(values, 0);
                scales.resize(len, 0.0);
            }
        }
    }

    /// Pads (and in int8 mode quantizes) a query of the arena's dimension.
    pub fn prepare(&self, query: &[f32]) -> PreparedQuery {
        let mut padded = vec![0.0; self.stride];
        padded[..query.len()].copy_from_slice(query);
        let codes = matches!(self.rows, Rows::Int8 { .. }).then(|| QueryCodes::new(&padded));
        PreparedQuery { padded, codes }
    }

    /// Offers to `top` every row whose key is `visible`, scored against the query, calling `keep(slot)`
    /// only for rows that would make the cut. Scores are exact f32 dot products, or int8 estimates (see
    /// [`Arena::rescore`]). Written without per-row calls, so it stays one tight loop at any opt-level.
    pub fn scan(
        &self,
        query: &PreparedQuery,
        keys: &[u32],
        visible: &[bool],
        top: &mut TopK,
        mut keep: impl FnMut(usize) -> bool,
    ) {
        if self.stride == 0 {
            return;
        }
        let is_visible = |key: &u32| visible.get(*key as usize).copied().unwrap_or(false);
        match (&self.rows, &query.codes) {
            (Rows::Int8 { codes, scales }, Some(q)) => {
                let rows = codes.chunks_exact(self.stride).zip(scales).zip(keys).enumerate();
                for (slot, ((row, scale), key)) in rows {
                    if is_visible(key) {
                        let score = dot_i8(row, &q.codes) as f32 * (scale * q.scale);
                        if top.admits(score, slot as u32) && keep(slot) {
                            top.push(score, slot as u32);
                        }
                    }
                }
            }
            (Rows::F32(rows), _) => {
                for (slot, (row, key)) in rows.chunks_exact(self.stride).zip(keys).enumerate() {
                    if is_visible(key) {
                        let score = dot_f32(row, &query.padded);
                        if top.admits(score, slot as u32) && keep(slot) {
                            top.push(score, slot as u32);
                        }
                    }
                }
            }
            (Rows::Int8 { .. }, None) => {}
        }
    }

    /// The f32 dot product of row `slot` (dequantised into `buffer` in int8 mode) with the query.
    pub fn rescore(&self, query: &PreparedQuery, slot: usize, buffer: &mut Vec<f32>) -> f32 {
        let range = slot * self.stride..(slot + 1) * self.stride;
        match &self.rows {
            Rows::F32(rows) => dot_f32(&rows[range], &query.padded),
            Rows::Int8 { codes, scales } => {
                buffer.resize(self.stride, 0.0);
                decode(&codes[range], scales[slot], buffer);
                dot_f32(buffer, &query.padded)
            }
        }
    }
}
