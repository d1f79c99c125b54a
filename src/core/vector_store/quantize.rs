//! Symmetric int8 scalar quantization, one scale per vector: `x ≈ code · scale` with
//! `scale = max|x| / 127`. Queries are quantized finer (to i16) so the scan's error comes from the
//! stored codes alone, and bounded so that no i32 dot product can overflow.

use super::kernels::{max_abs, quantize};

/// The largest stored code magnitude.
const CODE_MAX: f32 = 127.0;

/// Writes the int8 codes of `vector` into `codes` (same length) and returns their scale.
pub fn encode(vector: &[f32], codes: &mut [i8]) -> f32 {
    let max = max_abs(vector);
    if max == 0.0 || !max.is_finite() {
        codes.fill(0);
        return 0.0;
    }
    let scale = max / CODE_MAX;
    quantize(vector, scale, codes);
    scale
}

/// Writes `codes · scale` into `out`.
pub fn decode(codes: &[i8], scale: f32, out: &mut [f32]) {
    for (x, code) in out.iter_mut().zip(codes) {
        *x = f32::from(*code) * scale;
    }
}

/// A query quantized to i16 for [`super::kernels::dot_i8`]: `query ≈ codes · scale`.
pub struct QueryCodes {
    pub codes: Vec<i16>,
    pub scale: f32,
}

impl QueryCodes {
    /// Quantizes `query` (already padded). The magnitude bound keeps `Σ 127·|q|` below `i32::MAX`.
    pub fn new(query: &[f32]) -> Self {
        let bound = (i32::MAX as usize / (query.len().max(1) * CODE_MAX as usize)).min(i16::MAX as usize) as f32;
        let max = query.iter().fold(0.0f32, |max, x| max.max(x.abs()));
        if max == 0.0 || !max.is_finite() {
            return Self { codes: vec![0; query.len()], scale: 0.0 };
        }
        let scale = max / bound;
        let codes = query.iter().map(|x| (x / scale).round().clamp(-bound, bound) as i16).collect();
        Self { codes, scale }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_round_trip_within_half_a_step() {
        let vector = [0.5, -0.25, 0.1, 0.0, -0.5, 0.3];
        let mut codes = [0i8; 6];
        let scale = encode(&vector, &mut codes);
        assert_eq!((codes[0], codes[4]), (127, -127));
        let mut back = [0.0f32; 6];
        decode(&codes, scale, &mut back);
        for (x, y) in vector.iter().zip(back) {
            assert!((x - y).abs() <= scale / 2.0 + 1e-7, "{x} vs {y}");
        }
    }

    #[test]
    fn codes_round_to_nearest_even_at_every_length() {
        for len in [1, 15, 16, 17, 384, 390] {
            let vector: Vec<f32> = (0..len).map(|i| ((i * 37 % 101) as f32 - 50.0) / 50.0).collect();
            let mut codes = vec![0i8; len];
            let scale = encode(&vector, &mut codes);
            for (x, code) in vector.iter().zip(&codes) {
                let exact = f64::from(*x) / f64::from(scale);
                assert!((exact - f64::from(*code)).abs() <= 0.5 + 1e-4, "{len}: {x} → {code}");
            }
        }
        let mut codes = [0i8; 4];
        assert_eq!(encode(&[127.0, 0.5, 1.5, -2.5], &mut codes), 1.0);
        assert_eq!(codes, [127, 0, 2, -2], "ties to even, as SIMD128's f32x4.nearest");
    }

    #[test]
    fn query_codes_cannot_overflow_an_i32_dot_product() {
        for len in [16, 384, 1536, 4096, 16384] {
            let query = QueryCodes::new(&vec![1.0; len]);
            let worst: i64 = query.codes.iter().map(|q| 127 * i64::from(*q).abs()).sum();
            assert!(worst <= i64::from(i32::MAX), "{len}: {worst}");
            assert!(query.codes[0] >= 1000, "{len}: the query keeps at least 10 bits");
        }
        assert_eq!(QueryCodes::new(&[0.0; 16]).scale, 0.0);
    }
}
