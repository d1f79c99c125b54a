//! The packed layer's inner loop: one panel of [`PANEL`] outputs against four rows, or one. Every output
//! starts at its bias and adds `x[k]·w[k]` for k in order, so the SIMD128 versions and the portable one,
//! four rows or one, compute the same floats.

/// Outputs per panel: two SIMD128 vectors.
pub const PANEL: usize = 8;

/// Four rows (`x`: 4 × K) against a panel (K × PANEL): `out` gets 4 × PANEL outputs.
pub fn rows_4(x: &[f32], panel: &[f32], bias: &[f32], out: &mut [f32]) {
    imp::rows_4(x, panel, bias, out)
}

/// One row (`x`: K) against a panel: `out` gets PANEL outputs.
pub fn rows_1(x: &[f32], panel: &[f32], bias: &[f32], out: &mut [f32]) {
    imp::rows_1(x, panel, bias, out)
}

/// One row, portable (also the portable four-row kernel's step).
#[cfg(not(all(target_arch = "wasm32", target_feature = "simd128")))]
fn row_portable(x: &[f32], panel: &[f32], bias: &[f32], out: &mut [f32]) {
    let k = panel.len() / PANEL;
    let mut acc = [0.0f32; PANEL];
    acc.copy_from_slice(&bias[..PANEL]);
    for (xk, w) in x[..k].iter().zip(panel.chunks_exact(PANEL)) {
        for (a, w) in acc.iter_mut().zip(w) {
            *a += xk * w;
        }
    }
    out[..PANEL].copy_from_slice(&acc);
}

#[cfg(not(all(target_arch = "wasm32", target_feature = "simd128")))]
mod imp {
    use super::{row_portable, PANEL};

    pub fn rows_4(x: &[f32], panel: &[f32], bias: &[f32], out: &mut [f32]) {
        let k = panel.len() / PANEL;
        for r in 0..4 {
            row_portable(&x[r * k..(r + 1) * k], panel, bias, &mut out[r * PANEL..(r + 1) * PANEL]);
        }
    }

    pub fn rows_1(x: &[f32], panel: &[f32], bias: &[f32], out: &mut [f32]) {
        row_portable(x, panel, bias, out)
    }
}

#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
mod imp {
    use core::arch::wasm32::*;

    use super::PANEL;

    /// Eight accumulators (four rows × two vectors) stay in registers; per k two loads of the panel and
    /// four splats of x feed eight multiply-adds.
    pub fn rows_4(x: &[f32], panel: &[f32], bias: &[f32], out: &mut [f32]) {
        let k = panel.len() / PANEL;
        assert!(x.len() >= 4 * k && bias.len() >= PANEL && out.len() >= 4 * PANEL);
        let (x, w) = (x.as_ptr(), panel.as_ptr());
        // SAFETY: the assert above bounds every pointer below: x rows r·k + i < 4k, panel (i·8 + 8) ≤ 8k,
        // bias 8 floats, out 32 floats; v128 loads and stores have no alignment requirement.
        unsafe {
            let (b0, b1) = (v128_load(bias.as_ptr().cast()), v128_load(bias.as_ptr().add(4).cast()));
            let (mut a00, mut a01, mut a10, mut a11) = (b0, b1, b0, b1);
            let (mut a20, mut a21, mut a30, mut a31) = (b0, b1, b0, b1);
            for i in 0..k {
                let (w0, w1) = (v128_load(w.add(i * PANEL).cast()), v128_load(w.add(i * PANEL + 4).cast()));
                let x0 = f32x4_splat(*x.add(i));
                let x1 = f32x4_splat(*x.add(k + i));
                let x2 = f32x4_splat(*x.add(2 * k + i));
                let x3 = f32x4_splat(*x.add(3 * k + i));
                a00 = f32x4_add(a00, f32x4_mul(x0, w0));
                a01 = f32x4_add(a01, f32x4_mul(x0, w1));
                a10 = f32x4_add(a10, f32x4_mul(x1, w0));
                a11 = f32x4_add(a11, f32x4_mul(x1, w1));
                a20 = f32x4_add(a20, f32x4_mul(x2, w0));
                a21 = f32x4_add(a21, f32x4_mul(x2, w1));
                a30 = f32x4_add(a30, f32x4_mul(x3, w0));
                a31 = f32x4_add(a31, f32x4_mul(x3, w1));
            }
            let o = out.as_mut_ptr();
            for (at, v) in [a00, a01, a10, a11, a20, a21, a30, a31].into_iter().enumerate() {
                v128_store(o.add(at * 4).cast(), v);
            }
        }
    }

    /// One row: the same operations, in the same order, as one row of `rows_4`.
    pub fn rows_1(x: &[f32], panel: &[f32], bias: &[f32], out: &mut [f32]) {
        let k = panel.len() / PANEL;
        assert!(x.len() >= k && bias.len() >= PANEL && out.len() >= PANEL);
        let (x, w) = (x.as_ptr(), panel.as_ptr());
        // SAFETY: the assert above bounds every pointer below: x i < k, panel (i·8 + 8) ≤ 8k, bias and
        // out 8 floats; v128 loads and stores have no alignment requirement.
        unsafe {
            let (mut a0, mut a1) = (v128_load(bias.as_ptr().cast()), v128_load(bias.as_ptr().add(4).cast()));
            for i in 0..k {
                let (w0, w1) = (v128_load(w.add(i * PANEL).cast()), v128_load(w.add(i * PANEL + 4).cast()));
                let x0 = f32x4_splat(*x.add(i));
                a0 = f32x4_add(a0, f32x4_mul(x0, w0));
                a1 = f32x4_add(a1, f32x4_mul(x0, w1));
            }
            v128_store(out.as_mut_ptr().cast(), a0);
            v128_store(out.as_mut_ptr().add(4).cast(), a1);
        }
    }
}
