//! The vectors of all slots in flat allocations: row `i` starts at `i · stride`, zero-padded to a
//! multiple of [`LANES`]. Rows are f32, int8 codes with one scale each (a quarter of the memory), or both
//! (`auto`: the int8 scan of large indexes, rescored exactly from f32).

use super::kernels::{dot_f32, dot_f32_pair, dot_i8, LANES};
use super::quantize::{decode, encode, QueryCodes};
use super::top_k::TopK;
use super::{normalized, Quantization};

/// Int8 rows: the codes and one scale per row.
#[derive(Debug, Default)]
struct Codes {
    codes: Vec<i8>,
    scales: Vec<f32>,
}

/// Row storage. The dimension is fixed by the first vector and forgotten on `clear`.
#[derive(Debug)]
pub struct Arena {
    /// f32 rows (`none` and `auto`).
    f32: Option<Vec<f32>>,
    /// int8 rows (`int8` and `auto`).
    int8: Option<Codes>,
    dimension: Option<usize>,
    stride: usize,
    len: usize,
    /// Rows to make room for once the dimension is known.
    reserved: usize,
}

/// A query prepared for one scan: padded, and quantized when the arena holds int8 rows.
pub struct PreparedQuery {
    padded: Vec<f32>,
    codes: Option<QueryCodes>,
}

impl Arena {
    pub fn new(quantization: Quantization) -> Self {
        let (f32, int8) = match quantization {
            Quantization::None => (Some(Vec::new()), None),
            Quantization::Int8 => (None, Some(Codes::default())),
            Quantization::Auto => (Some(Vec::new()), Some(Codes::default())),
        };
        Self { f32, int8, dimension: None, stride: 0, len: 0, reserved: 0 }
    }

    pub fn quantization(&self) -> Quantization {
        match (&self.f32, &self.int8) {
            (Some(_), Some(_)) => Quantization::Auto,
            (None, Some(_)) => Quantization::Int8,
            _ => Quantization::None,
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
        if let Some(int8) = &mut self.int8 {
            int8.scales.reserve_exact(additional); // one per row, dimension or not
        }
        if self.dimension.is_none() {
            return;
        }
        let values = additional * self.stride;
        if let Some(rows) = &mut self.f32 {
            rows.reserve_exact(values);
        }
        if let Some(int8) = &mut self.int8 {
            int8.codes.reserve_exact(values);
        }
    }

    /// Appends a row holding `vector` (of the arena's dimension), or a zero row. Written straight into
    /// the new space: loading a large index appends every row once, and zeroing then overwriting it costs
    /// two passes over fresh memory.
    pub fn push(&mut self, vector: Option<&[f32]>) {
        let (Some(vector), Some(dimension)) = (vector, self.dimension) else {
            self.len += 1;
            self.resize(self.len);
            return;
        };
        let padding = self.stride - dimension;
        if let Some(rows) = &mut self.f32 {
            rows.extend_from_slice(vector);
            rows.extend(std::iter::repeat_n(0.0, padding));
        }
        if let Some(int8) = &mut self.int8 {
            let start = int8.codes.len();
            int8.codes.resize(start + self.stride, 0);
            int8.scales.push(encode(vector, &mut int8.codes[start..start + dimension]));
        }
        self.len += 1;
    }

    /// Writes `vector` (of the arena's dimension) into row `slot`, or zeroes it.
    pub fn write(&mut self, slot: usize, vector: Option<&[f32]>) {
        let range = slot * self.stride..(slot + 1) * self.stride;
        let dimension = self.dimension.unwrap_or(0);
        if let Some(rows) = &mut self.f32 {
            let row = &mut rows[range.clone()];
            match vector {
                Some(vector) => {
                    row[..dimension].copy_from_slice(vector);
                    row[dimension..].fill(0.0);
                }
                None => row.fill(0.0),
            }
        }
        if let Some(int8) = &mut self.int8 {
            let row = &mut int8.codes[range];
            row.fill(0);
            int8.scales[slot] = vector.map_or(0.0, |vector| encode(vector, &mut row[..dimension]));
        }
    }

    /// Row `slot` as a unit f32 vector (dequantised and renormalised without f32 rows), without padding.
    pub fn vector(&self, slot: usize) -> Vec<f32> {
        let dimension = self.dimension.unwrap_or(0);
        let start = slot * self.stride;
        match (&self.f32, &self.int8) {
            (Some(rows), _) => rows[start..start + dimension].to_vec(),
            (None, Some(int8)) => {
                let mut out = vec![0.0; dimension];
                decode(&int8.codes[start..start + dimension], int8.scales[slot], &mut out);
                normalized(out.clone()).unwrap_or(out)
            }
            (None, None) => Vec::new(),
        }
    }

    /// Row `slot` as [`Arena::vector`] gives it, borrowed when f32 rows are kept.
    pub fn row(&self, slot: usize) -> std::borrow::Cow<'_, [f32]> {
        match &self.f32 {
            Some(rows) => rows[slot * self.stride..][..self.dimension.unwrap_or(0)].into(),
            None => self.vector(slot).into(),
        }
    }

    /// Moves row `from` to `to` (`to < from`), for compaction.
    pub fn move_row(&mut self, from: usize, to: usize) {
        let stride = self.stride;
        if let Some(rows) = &mut self.f32 {
            rows.copy_within(from * stride..(from + 1) * stride, to * stride);
        }
        if let Some(int8) = &mut self.int8 {
            int8.codes.copy_within(from * stride..(from + 1) * stride, to * stride);
            int8.scales[to] = int8.scales[from];
        }
    }

    /// Keeps the first `len` rows.
    pub fn truncate(&mut self, len: usize) {
        self.len = len.min(self.len);
        self.resize(self.len);
        if let Some(rows) = &mut self.f32 {
            rows.shrink_to(rows.len() * 2);
        }
        if let Some(int8) = &mut self.int8 {
            int8.codes.shrink_to(int8.codes.len() * 2);
            int8.scales.shrink_to(int8.scales.len() * 2);
        }
    }

    /// Bytes allocated for vectors.
    pub fn bytes(&self) -> usize {
        let f32 = self.f32.as_ref().map_or(0, |rows| rows.capacity() * 4);
        f32 + self.int8.as_ref().map_or(0, |int8| int8.codes.capacity() + int8.scales.capacity() * 4)
    }

    fn resize(&mut self, len: usize) {
        let values = len * self.stride;
        if let Some(rows) = &mut self.f32 {
            zero_extend(rows, values);
        }
        if let Some(int8) = &mut self.int8 {
            zero_extend(&mut int8.codes, values);
            zero_extend(&mut int8.scales, len);
        }
    }

    /// Pads (and, with int8 rows, quantizes) a query of the arena's dimension.
    pub fn prepare(&self, query: &[f32]) -> PreparedQuery {
        let mut padded = vec![0.0; self.stride];
        padded[..query.len()].copy_from_slice(query);
        let codes = self.int8.is_some().then(|| QueryCodes::new(&padded));
        PreparedQuery { padded, codes }
    }

    /// Offers to `top` every row whose key is `visible`, scored against the query, calling `keep(slot)`
    /// only for rows that would make the cut. Scores are int8 estimates when `coarse` (or without f32
    /// rows; see [`Arena::rescore`]), else exact f32 dot products. Written without per-row calls, so it
    /// stays one tight loop at any opt-level; `keep` is a `dyn` so that the loop is compiled once.
    pub fn scan(
        &self,
        query: &PreparedQuery,
        (keys, visible): (&[u32], &[bool]),
        coarse: bool,
        top: &mut TopK,
        keep: &dyn Fn(usize) -> bool,
    ) {
        if self.stride == 0 {
            return;
        }
        let is_visible = |key: &u32| visible.get(*key as usize).copied().unwrap_or(false);
        match (&self.f32, &self.int8, &query.codes) {
            (Some(rows), _, _) if !coarse || self.int8.is_none() => {
                for (slot, (row, key)) in rows.chunks_exact(self.stride).zip(keys).enumerate() {
                    if is_visible(key) {
                        let score = dot_f32(row, &query.padded);
                        if top.admits(score, slot as u32) && keep(slot) {
                            top.push(score, slot as u32);
                        }
                    }
                }
            }
            (_, Some(int8), Some(q)) => {
                let rows = int8.codes.chunks_exact(self.stride).zip(&int8.scales).zip(keys).enumerate();
                for (slot, ((row, scale), key)) in rows {
                    if is_visible(key) {
                        let score = dot_i8(row, &q.codes) as f32 * (scale * q.scale);
                        if top.admits(score, slot as u32) && keep(slot) {
                            top.push(score, slot as u32);
                        }
                    }
                }
            }
            _ => {}
        }
    }

    /// [`rescore`](Self::rescore) of each slot of `hits`, in their order, given to `found` with its slot.
    /// From f32 rows two at a time, whose scattered reads then overlap.
    pub fn rescore_each(&self, query: &PreparedQuery, hits: &[(f32, u32)], mut found: impl FnMut(f32, u32)) {
        let Some(rows) = &self.f32 else {
            let mut buffer = Vec::new();
            for &(_, slot) in hits {
                found(self.rescore(query, slot as usize, &mut buffer), slot);
            }
            return;
        };
        let row = |slot: u32| &rows[slot as usize * self.stride..(slot as usize + 1) * self.stride];
        let mut pairs = hits.chunks_exact(2);
        for pair in &mut pairs {
            let ((_, a), (_, b)) = (pair[0], pair[1]);
            let (first, second) = dot_f32_pair(row(a), row(b), &query.padded);
            found(first, a);
            found(second, b);
        }
        for &(_, slot) in pairs.remainder() {
            found(dot_f32(row(slot), &query.padded), slot);
        }
    }

    /// The f32 dot product of row `slot` (exact from f32 rows, else dequantised into `buffer`) with
    /// the query.
    pub fn rescore(&self, query: &PreparedQuery, slot: usize, buffer: &mut Vec<f32>) -> f32 {
        let range = slot * self.stride..(slot + 1) * self.stride;
        match (&self.f32, &self.int8) {
            (Some(rows), _) => dot_f32(&rows[range], &query.padded),
            (None, Some(int8)) => {
                buffer.resize(self.stride, 0.0);
                decode(&int8.codes[range], int8.scales[slot], buffer);
                dot_f32(buffer, &query.padded)
            }
            (None, None) => 0.0,
        }
    }
}

/// Resizes `values` to `len`, new values zero. An empty one growing beyond its capacity (a bulk load fixing
/// the dimension of many rows at once) is allocated zeroed, cleared in one pass rather than value by value.
/// (The allocator clears even fresh pages: dlmalloc on wasm knows no chunk to be fresh.)
fn zero_extend<T: Copy + Default>(values: &mut Vec<T>, len: usize) {
    if values.is_empty() && len > values.capacity() {
        *values = vec![T::default(); len];
    } else {
        values.resize(len, T::default());
    }
}
