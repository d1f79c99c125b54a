//! The int8 layer's inner loop: one panel of [`PANEL`] outputs against one to four rows, in integers.
//! Inputs come in pairs (`k`, `k + 1`): a row is its quantised (i16) values as pairs packed in one u32 each,
//! and a panel holds, per pair, 16 bytes: for outputs 0..8, `w[o][k], w[o][k + 1]`. Every output is the wrapping
//! i32 sum of `x·w` over its pairs, so the SIMD128 versions (`i32x4_dot_i16x8_s` after widening the weights,
//! baseline SIMD128) and the portable one compute the same integers.

/// Outputs per panel: two i32x4 accumulators.
pub const PANEL: usize = 8;
/// Bytes of a panel per input pair.
pub const PAIR_BYTES: usize = 2 * PANEL;

/// Up to [`MAX_ROWS`] rows (`x`: `count` × pairs) against a panel (pairs × 16 bytes): `out` gets
/// `count` × PANEL sums. Integer sums do not depend on how rows are grouped, so a row's sums are the same
/// whatever `count` it goes with.
pub fn rows(x: &[u32], panel: &[i8], out: &mut [i32], count: usize) {
    let pairs = panel.len() / PAIR_BYTES;
    assert!((1..=MAX_ROWS).contains(&count) && x.len() >= count * pairs && out.len() >= count * PANEL);
    match count {
        1 => imp::rows::<1>(x, panel, out),
        2 => imp::rows::<2>(x, panel, out),
        3 => imp::rows::<3>(x, panel, out),
        _ => imp::rows::<4>(x, panel, out),
    }
}

/// Rows per call of the kernel: 4 × 2 accumulators, 2 weight vectors and a splat fit SIMD128's registers.
pub const MAX_ROWS: usize = 4;

/// Two i16 values as the pair one SIMD128 lane of 32 bits holds (little-endian: `a` low).
pub fn pair(a: i16, b: i16) -> u32 {
    u32::from(a as u16) | (u32::from(b as u16) << 16)
}

#[cfg(not(all(target_arch = "wasm32", target_feature = "simd128")))]
mod imp {
    use super::{PAIR_BYTES, PANEL};

    /// `acc[o] += x₀·w[o][k] + x₁·w[o][k + 1]` per pair and row, wrapping as i32x4 lanes do.
    pub fn rows<const R: usize>(x: &[u32], panel: &[i8], out: &mut [i32]) {
        let pairs = panel.len() / PAIR_BYTES;
        for r in 0..R {
            let mut acc = [0i32; PANEL];
            for (&xs, w) in x[r * pairs..(r + 1) * pairs].iter().zip(panel.chunks_exact(PAIR_BYTES)) {
                let (x0, x1) = (i32::from(xs as u16 as i16), i32::from((xs >> 16) as u16 as i16));
                for (o, a) in acc.iter_mut().enumerate() {
                    let dot = x0 * i32::from(w[2 * o]) + x1 * i32::from(w[2 * o + 1]);
                    *a = a.wrapping_add(dot);
                }
            }
            out[r * PANEL..(r + 1) * PANEL].copy_from_slice(&acc);
        }
    }
}

#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
mod imp {
    use core::arch::wasm32::*;

    use super::{PAIR_BYTES, PANEL};

    /// R × 2 i32x4 accumulators; per pair the panel's 16 bytes are read as two i16x8 (8 bytes each,
    /// sign-extended by the load), and each row's pair is splatted by its load: 2R `i32x4_dot_i16x8_s`.
    /// The caller ([`super::rows`]) checks the lengths.
    pub fn rows<const R: usize>(x: &[u32], panel: &[i8], out: &mut [i32]) {
        let pairs = panel.len() / PAIR_BYTES;
        let (x, w) = (x.as_ptr(), panel.as_ptr());
        // SAFETY: `super::rows` asserts x.len() ≥ R·pairs and out.len() ≥ R·PANEL, so x rows r·pairs + i <
        // R·pairs, panel i·16 + 16 ≤ 16·pairs, out R·8 i32s; v128 loads and stores need no alignment.
        unsafe {
            let mut acc = [[i32x4_splat(0); 2]; R];
            for i in 0..pairs {
                let at = w.add(i * PAIR_BYTES);
                let (w0, w1) = (i16x8_load_extend_i8x8(at), i16x8_load_extend_i8x8(at.add(8)));
                for (r, acc) in acc.iter_mut().enumerate() {
                    let xs = v128_load32_splat(x.add(r * pairs + i));
                    acc[0] = i32x4_add(acc[0], i32x4_dot_i16x8(xs, w0));
                    acc[1] = i32x4_add(acc[1], i32x4_dot_i16x8(xs, w1));
                }
            }
            let o = out.as_mut_ptr();
            for (r, acc) in acc.iter().enumerate() {
                v128_store(o.add(r * PANEL).cast(), acc[0]);
                v128_store(o.add(r * PANEL + 4).cast(), acc[1]);
            }
        }
    }
}
