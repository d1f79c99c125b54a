//! The reference scan: what memwasm's index does (scope pre-check, dot product, bounded top-k; int8 codes
//! then f32 rescoring of the best candidates), written for this CPU: AVX2 + FMA when it has them.

use std::cmp::Ordering;
use std::collections::BinaryHeap;

const PAD: usize = 32;
const CODE_MAX: f32 = 127.0;

#[derive(Clone, Copy)]
struct Hit(f32, u32);
impl PartialEq for Hit {
    fn eq(&self, o: &Self) -> bool {
        self.cmp(o) == Ordering::Equal
    }
}
impl Eq for Hit {}
impl PartialOrd for Hit {
    fn partial_cmp(&self, o: &Self) -> Option<Ordering> {
        Some(self.cmp(o))
    }
}
impl Ord for Hit {
    /// Greater = weaker (lower score, then later row), so the heap's top is the weakest kept.
    fn cmp(&self, o: &Self) -> Ordering {
        o.0.total_cmp(&self.0).then(self.1.cmp(&o.1))
    }
}

struct TopK {
    k: usize,
    heap: BinaryHeap<Hit>,
}

impl TopK {
    fn new(k: usize) -> Self {
        Self { k, heap: BinaryHeap::with_capacity(k + 1) }
    }
    #[inline]
    fn offer(&mut self, score: f32, row: u32) {
        let hit = Hit(score, row);
        if self.heap.len() < self.k {
            self.heap.push(hit);
        } else if self.heap.peek().is_some_and(|weakest| hit < *weakest) {
            self.heap.pop();
            self.heap.push(hit);
        }
    }
    fn sorted(self) -> Vec<(f32, u32)> {
        self.heap.into_sorted_vec().into_iter().map(|Hit(s, r)| (s, r)).collect()
    }
}

/// Rows padded to a multiple of 32, f32 and int8 (+ one scale per row).
pub struct Index {
    stride: usize,
    rows: Vec<f32>,
    codes: Vec<i8>,
    scales: Vec<f32>,
    users: Vec<u32>,
}

impl Index {
    pub fn new(vectors: &[f32], dim: usize, users: &[u32]) -> Self {
        let stride = dim.div_ceil(PAD) * PAD;
        let n = users.len();
        let mut rows = vec![0.0; n * stride];
        let mut codes = vec![0i8; n * stride];
        let mut scales = vec![0.0; n];
        for (i, v) in vectors.chunks_exact(dim).enumerate() {
            rows[i * stride..i * stride + dim].copy_from_slice(v);
            let scale = v.iter().fold(0.0f32, |m, x| m.max(x.abs())) / CODE_MAX;
            scales[i] = scale;
            for (c, x) in codes[i * stride..i * stride + dim].iter_mut().zip(v) {
                *c = (x / scale).round().clamp(-CODE_MAX, CODE_MAX) as i8;
            }
        }
        Self { stride, rows, codes, scales, users: users.to_vec() }
    }

    pub fn f32_bytes(&self) -> usize {
        self.rows.len() * 4
    }

    pub fn int8_bytes(&self) -> usize {
        self.codes.len() + self.scales.len() * 4
    }

    fn pad(&self, query: &[f32]) -> Vec<f32> {
        let mut q = vec![0.0; self.stride];
        q[..query.len()].copy_from_slice(query);
        q
    }

    /// Exact top-k of `user`'s rows.
    pub fn top_f32(&self, query: &[f32], k: usize, user: u32) -> Vec<(f32, u32)> {
        let q = self.pad(query);
        let mut top = TopK::new(k);
        scan_f32(&self.rows, self.stride, &self.users, user, &q, &mut top);
        top.sorted()
    }

    /// int8 scan, then the best `2k + 8` rescored in f32 from the dequantised codes (as memwasm does).
    pub fn top_int8(&self, query: &[f32], k: usize, user: u32) -> Vec<(f32, u32)> {
        let q = self.pad(query);
        let bound = (i32::MAX as usize / (self.stride * CODE_MAX as usize)).min(i16::MAX as usize) as f32;
        let qscale = q.iter().fold(0.0f32, |m, x| m.max(x.abs())) / bound;
        let qcodes: Vec<i16> = q.iter().map(|x| (x / qscale).round().clamp(-bound, bound) as i16).collect();
        let mut candidates = TopK::new(k * 2 + 8);
        scan_i8(self, user, &qcodes, qscale, &mut candidates);
        let mut top = TopK::new(k);
        let mut deq = vec![0.0f32; self.stride];
        for (_, row) in candidates.sorted() {
            let start = row as usize * self.stride;
            for (d, c) in deq.iter_mut().zip(&self.codes[start..start + self.stride]) {
                *d = f32::from(*c) * self.scales[row as usize];
            }
            top.offer(dot_f32(&deq, &q), row);
        }
        top.sorted()
    }
}

fn dot_f32(a: &[f32], b: &[f32]) -> f32 {
    #[cfg(target_arch = "x86_64")]
    if avx2() {
        // SAFETY: the CPU has AVX2 and FMA; lengths are equal multiples of 32.
        return unsafe { x86::dot_f32(a, b) };
    }
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

/// The scan loops, compiled for AVX2 + FMA as a whole (the kernels inline) when the CPU has them.
fn scan_f32(rows: &[f32], stride: usize, users: &[u32], user: u32, q: &[f32], top: &mut TopK) {
    #[cfg(target_arch = "x86_64")]
    if avx2() {
        // SAFETY: the CPU has AVX2 and FMA.
        return unsafe { x86::scan_f32(rows, stride, users, user, q, top) };
    }
    for (row, (v, u)) in rows.chunks_exact(stride).zip(users).enumerate() {
        if *u == user {
            top.offer(dot_f32(v, q), row as u32);
        }
    }
}

fn scan_i8(index: &Index, user: u32, q: &[i16], qscale: f32, top: &mut TopK) {
    #[cfg(target_arch = "x86_64")]
    if avx2() {
        // SAFETY: the CPU has AVX2.
        return unsafe { x86::scan_i8(index, user, q, qscale, top) };
    }
    let rows = index.codes.chunks_exact(index.stride).zip(&index.scales).zip(&index.users);
    for (row, ((c, scale), u)) in rows.enumerate() {
        if *u == user {
            let dot: i32 = c.iter().zip(q).map(|(x, y)| i32::from(*x) * i32::from(*y)).sum();
            top.offer(dot as f32 * (scale * qscale), row as u32);
        }
    }
}

#[cfg(target_arch = "x86_64")]
fn avx2() -> bool {
    std::arch::is_x86_feature_detected!("avx2") && std::arch::is_x86_feature_detected!("fma")
}

/// Which kernels run here.
pub fn kernels() -> &'static str {
    #[cfg(target_arch = "x86_64")]
    if avx2() {
        return "avx2+fma";
    }
    "portable"
}

#[cfg(target_arch = "x86_64")]
mod x86 {
    use std::arch::x86_64::*;

    use super::{Index, TopK};

    #[target_feature(enable = "avx2,fma")]
    pub unsafe fn scan_f32(rows: &[f32], stride: usize, users: &[u32], user: u32, q: &[f32], top: &mut TopK) {
        for (row, (v, u)) in rows.chunks_exact(stride).zip(users).enumerate() {
            if *u == user {
                top.offer(dot_f32(v, q), row as u32);
            }
        }
    }

    #[target_feature(enable = "avx2,fma")]
    pub unsafe fn scan_i8(index: &Index, user: u32, q: &[i16], qscale: f32, top: &mut TopK) {
        let rows = index.codes.chunks_exact(index.stride).zip(&index.scales).zip(&index.users);
        for (row, ((c, scale), u)) in rows.enumerate() {
            if *u == user {
                top.offer(dot_i8(c, q) as f32 * (scale * qscale), row as u32);
            }
        }
    }

    #[target_feature(enable = "avx2,fma")]
    #[inline]
    pub unsafe fn dot_f32(a: &[f32], b: &[f32]) -> f32 {
        let mut acc = [_mm256_setzero_ps(); 4];
        for (x, y) in a.chunks_exact(32).zip(b.chunks_exact(32)) {
            for (j, sum) in acc.iter_mut().enumerate() {
                let xv = _mm256_loadu_ps(x.as_ptr().add(8 * j));
                let yv = _mm256_loadu_ps(y.as_ptr().add(8 * j));
                *sum = _mm256_fmadd_ps(xv, yv, *sum);
            }
        }
        let s = _mm256_add_ps(_mm256_add_ps(acc[0], acc[1]), _mm256_add_ps(acc[2], acc[3]));
        let s = _mm_add_ps(_mm256_castps256_ps128(s), _mm256_extractf128_ps::<1>(s));
        let s = _mm_add_ps(s, _mm_movehl_ps(s, s));
        let s = _mm_add_ss(s, _mm_shuffle_ps::<1>(s, s));
        _mm_cvtss_f32(s)
    }

    #[target_feature(enable = "avx2")]
    #[inline]
    pub unsafe fn dot_i8(a: &[i8], b: &[i16]) -> i32 {
        let mut acc = [_mm256_setzero_si256(); 2];
        for (x, y) in a.chunks_exact(32).zip(b.chunks_exact(32)) {
            for (j, sum) in acc.iter_mut().enumerate() {
                let codes = _mm256_cvtepi8_epi16(_mm_loadu_si128(x.as_ptr().add(16 * j).cast()));
                let query = _mm256_loadu_si256(y.as_ptr().add(16 * j).cast());
                *sum = _mm256_add_epi32(*sum, _mm256_madd_epi16(codes, query));
            }
        }
        let s = _mm256_add_epi32(acc[0], acc[1]);
        let s = _mm_add_epi32(_mm256_castsi256_si128(s), _mm256_extracti128_si256::<1>(s));
        let s = _mm_add_epi32(s, _mm_shuffle_epi32::<0b01_00_11_10>(s));
        let s = _mm_add_epi32(s, _mm_shuffle_epi32::<0b10_11_00_01>(s));
        _mm_cvtsi128_si32(s)
    }
}
