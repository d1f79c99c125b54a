//! The int8 layer's inner loop: one panel of [`PANEL`] outputs against four rows, or one, in integers.
//! Inputs come in pairs (`k`, `k + 1`): a row is its quantised (i16) values as pairs packed in one u32 each,
//! and a panel holds, per pair, 16 bytes: for outputs 0..8, `w[o][k], w[o][k + 1]`. Every output is the wrapping
//! i32 sum of `x·w` over its pairs, so the SIMD128 versions (`i32x4_dot_i16x8_s` after widening the weights,
//! baseline SIMD128) and the portable one compute the same integers.

/// Outputs per panel: two i32x4 accumulators.
pub const PANEL: usize = 8;
/// Bytes of a panel per input pair.
pub const PAIR_BYTES: usize = 2 * PANEL;

/// Four rows (`x`: 4 × pairs) against a panel (pairs × 16 bytes): `out` gets 4 × PANEL sums.
pub fn rows_4(x: &[u32], panel: &[i8], out: &mut [i32]) {
    imp::rows_4(x, panel, out)
}

/// One row (`x`: pairs) against a panel: `out` gets PANEL sums.
pub fn rows_1(x: &[u32], panel: &[i8], out: &mut [i32]) {
    imp::rows_1(x, panel, out)
}

/// Two i16 values as the pair one SIMD128 lane of 32 bits holds (little-endian: `a` low).
pub fn pair(a: i16, b: i16) -> u32 {
    u32::from(a as u16) | (u32::from(b as u16) << 16)
}

#[cfg(not(all(target_arch = "wasm32", target_feature = "simd128")))]
mod imp {
    use super::{PAIR_BYTES, PANEL};

    /// One row: `acc[o] += x₀·w[o][k] + x₁·w[o][k + 1]` per pair, wrapping as i32x4 lanes do.
    fn row(x: &[u32], panel: &[i8], out: &mut [i32]) {
        let mut acc = [0i32; PANEL];
        for (&xs, w) in x.iter().zip(panel.chunks_exact(PAIR_BYTES)) {
            let (x0, x1) = (i32::from(xs as u16 as i16), i32::from((xs >> 16) as u16 as i16));
            for (o, a) in acc.iter_mut().enumerate() {
                let dot = x0 * i32::from(w[2 * o]) + x1 * i32::from(w[2 * o + 1]);
                *a = a.wrapping_add(dot);
            }
        }
        out[..PANEL].copy_from_slice(&acc);
    }

    pub fn rows_4(x: &[u32], panel: &[i8], out: &mut [i32]) {
        let pairs = panel.len() / PAIR_BYTES;
        for r in 0..4 {
            row(&x[r * pairs..(r + 1) * pairs], panel, &mut out[r * PANEL..(r + 1) * PANEL]);
        }
    }

    pub fn rows_1(x: &[u32], panel: &[i8], out: &mut [i32]) {
        row(x, panel, out)
    }
}

#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
mod imp {
    use core::arch::wasm32::*;

    use super::{PAIR_BYTES, PANEL};

    /// Eight i32x4 accumulators (four rows × two vectors); per pair one 16-byte load of the panel, widened
    /// to two i16x8, and four splats of x feed eight `i32x4_dot_i16x8_s`.
    pub fn rows_4(x: &[u32], panel: &[i8], out: &mut [i32]) {
        let pairs = panel.len() / PAIR_BYTES;
        assert!(x.len() >= 4 * pairs && out.len() >= 4 * PANEL);
        let (x, w) = (x.as_ptr(), panel.as_ptr());
        // SAFETY: the assert above bounds every pointer below: x rows r·pairs + i < 4·pairs, panel
        // i·16 + 16 ≤ 16·pairs, out 32 i32s; v128 loads and stores have no alignment requirement.
        unsafe {
            let zero = i32x4_splat(0);
            let (mut a00, mut a01, mut a10, mut a11) = (zero, zero, zero, zero);
            let (mut a20, mut a21, mut a30, mut a31) = (zero, zero, zero, zero);
            for i in 0..pairs {
                let bytes = v128_load(w.add(i * PAIR_BYTES).cast());
                let (w0, w1) = (i16x8_extend_low_i8x16(bytes), i16x8_extend_high_i8x16(bytes));
                let x0 = u32x4_splat(*x.add(i));
                let x1 = u32x4_splat(*x.add(pairs + i));
                let x2 = u32x4_splat(*x.add(2 * pairs + i));
                let x3 = u32x4_splat(*x.add(3 * pairs + i));
                a00 = i32x4_add(a00, i32x4_dot_i16x8(x0, w0));
                a01 = i32x4_add(a01, i32x4_dot_i16x8(x0, w1));
                a10 = i32x4_add(a10, i32x4_dot_i16x8(x1, w0));
                a11 = i32x4_add(a11, i32x4_dot_i16x8(x1, w1));
                a20 = i32x4_add(a20, i32x4_dot_i16x8(x2, w0));
                a21 = i32x4_add(a21, i32x4_dot_i16x8(x2, w1));
                a30 = i32x4_add(a30, i32x4_dot_i16x8(x3, w0));
                a31 = i32x4_add(a31, i32x4_dot_i16x8(x3, w1));
            }
            let o = out.as_mut_ptr();
            for (at, v) in [a00, a01, a10, a11, a20, a21, a30, a31].into_iter().enumerate() {
                v128_store(o.add(at * 4).cast(), v);
            }
        }
    }

    /// One row: the same integer operations as one row of `rows_4`.
    pub fn rows_1(x: &[u32], panel: &[i8], out: &mut [i32]) {
        let pairs = panel.len() / PAIR_BYTES;
        assert!(x.len() >= pairs && out.len() >= PANEL);
        let (x, w) = (x.as_ptr(), panel.as_ptr());
        // SAFETY: the assert above bounds every pointer below: x i < pairs, panel i·16 + 16 ≤ 16·pairs,
        // out 8 i32s; v128 loads and stores have no alignment requirement.
        unsafe {
            let (mut a0, mut a1) = (i32x4_splat(0), i32x4_splat(0));
            for i in 0..pairs {
                let bytes = v128_load(w.add(i * PAIR_BYTES).cast());
                let x0 = u32x4_splat(*x.add(i));
                a0 = i32x4_add(a0, i32x4_dot_i16x8(x0, i16x8_extend_low_i8x16(bytes)));
                a1 = i32x4_add(a1, i32x4_dot_i16x8(x0, i16x8_extend_high_i8x16(bytes)));
            }
            v128_store(out.as_mut_ptr().cast(), a0);
            v128_store(out.as_mut_ptr().add(4).cast(), a1);
        }
    }
}
