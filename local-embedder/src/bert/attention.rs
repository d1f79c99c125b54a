//! Scaled dot-product attention over plain rows: every query of a sequence against that sequence's
//! attended keys (mask 1), per head, softmax then the weighted sum of the values. Padded keys are left out
//! rather than masked with a large negative score: their weights would be exactly 0 either way. A query
//! reads only its own sequence's rows, so a text's result does not depend on the batch it is in.

/// The shape of a pass: `rows` sequences of `cols` tokens, each token `width` wide, in `heads` heads.
#[derive(Clone, Copy)]
pub struct Shape {
    pub rows: usize,
    pub cols: usize,
    pub width: usize,
    pub heads: usize,
}

/// `q`, `k`, `v`: `(rows · cols, width)` each, head `h` in columns `h·d..(h + 1)·d`; `mask`: `(rows, cols)`,
/// 1 on the keys to attend. Returns the heads' outputs side by side, `(rows · cols, width)`.
pub fn attend(q: &[f32], k: &[f32], v: &[f32], mask: &[u32], shape: Shape) -> Vec<f32> {
    let Shape { rows, cols, width, heads } = shape;
    let size = width / heads.max(1);
    let scale = 1.0 / (size as f32).sqrt();
    let mut out = vec![0.0; rows * cols * width];
    let mut weights = Vec::with_capacity(cols);
    for row in 0..rows {
        let keys: Vec<usize> = (0..cols).filter(|&j| mask[row * cols + j] != 0).map(|j| row * cols + j).collect();
        for h in 0..heads {
            let head = h * size..(h + 1) * size;
            for i in row * cols..(row + 1) * cols {
                let query = &q[i * width..][head.clone()];
                weights.clear();
                weights.extend(keys.iter().map(|&j| dot(query, &k[j * width..][head.clone()]) * scale));
                softmax_in_place(&mut weights);
                let context = &mut out[i * width..][head.clone()];
                for (&j, &p) in keys.iter().zip(&weights) {
                    for (c, &x) in context.iter_mut().zip(&v[j * width..][head.clone()]) {
                        *c += p * x;
                    }
                }
            }
        }
    }
    out
}

/// `Σ a·b` in eight lanes (vectorised), the lanes then summed in order.
fn dot(a: &[f32], b: &[f32]) -> f32 {
    let mut lanes = [0.0f32; 8];
    let (a8, b8) = (a.chunks_exact(8), b.chunks_exact(8));
    let tail: f32 = a8.remainder().iter().zip(b8.remainder()).map(|(x, y)| x * y).sum();
    for (a, b) in a8.zip(b8) {
        for l in 0..8 {
            lanes[l] += a[l] * b[l];
        }
    }
    lanes.iter().sum::<f32>() + tail
}

/// `exp(x − max) / Σ` in place; an empty slice stays empty.
fn softmax_in_place(values: &mut [f32]) {
    let max = values.iter().fold(f32::NEG_INFINITY, |m, &x| if x > m { x } else { m });
    let mut sum = 0.0;
    for x in values.iter_mut() {
        *x = (*x - max).exp();
        sum += *x;
    }
    values.iter_mut().for_each(|x| *x /= sum);
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The textbook formula with a −∞ mask, in f64.
    fn reference(q: &[f32], k: &[f32], v: &[f32], mask: &[u32], s: Shape) -> Vec<f64> {
        let d = s.width / s.heads;
        let mut out = vec![0.0; s.rows * s.cols * s.width];
        for r in 0..s.rows {
            for h in 0..s.heads {
                for i in r * s.cols..(r + 1) * s.cols {
                    let scores: Vec<f64> = (0..s.cols)
                        .map(|j| {
                            let j2 = r * s.cols + j;
                            if mask[j2] == 0 {
                                return f64::NEG_INFINITY;
                            }
                            (0..d)
                                .map(|t| f64::from(q[i * s.width + h * d + t]) * f64::from(k[j2 * s.width + h * d + t]))
                                .sum::<f64>()
                                / (d as f64).sqrt()
                        })
                        .collect();
                    let max = scores.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
                    let e: Vec<f64> = scores.iter().map(|s| (s - max).exp()).collect();
                    let sum: f64 = e.iter().sum();
                    for t in 0..d {
                        out[i * s.width + h * d + t] = (0..s.cols)
                            .map(|j| e[j] / sum * f64::from(v[(r * s.cols + j) * s.width + h * d + t]))
                            .sum();
                    }
                }
            }
        }
        out
    }

    #[test]
    fn matches_masked_softmax_attention_and_a_row_alone_equals_it_in_a_batch() {
        let value = |i: usize| ((i * 7919 % 1000) as f32 / 250.0) - 2.0;
        let s = Shape { rows: 2, cols: 5, width: 24, heads: 3 };
        let n = s.rows * s.cols * s.width;
        let (q, k, v): (Vec<f32>, Vec<f32>, Vec<f32>) = (
            (0..n).map(value).collect(),
            (0..n).map(|i| value(i + 11)).collect(),
            (0..n).map(|i| value(i + 29)).collect(),
        );
        let mask = [1, 1, 1, 0, 0, 1, 1, 1, 1, 1];
        let got = attend(&q, &k, &v, &mask, s);
        for (g, r) in got.iter().zip(reference(&q, &k, &v, &mask, s)) {
            assert!((f64::from(*g) - r).abs() < 1e-5, "{g} vs {r}");
        }
        // The first sequence alone, without the second: the same floats.
        let one = Shape { rows: 1, ..s };
        let alone = attend(&q[..n / 2], &k[..n / 2], &v[..n / 2], &mask[..5], one);
        assert_eq!(alone, got[..n / 2]);
    }

    #[test]
    fn a_sequence_with_no_key_gives_zeros() {
        let s = Shape { rows: 1, cols: 2, width: 4, heads: 2 };
        assert_eq!(attend(&[1.0; 8], &[1.0; 8], &[1.0; 8], &[0, 0], s), [0.0; 8]);
    }
}
