//! GELU as BERT defines it, `x · (1 + erf(x / √2)) / 2`, with erf from a rational approximation (the
//! one Eigen and XNNPACK use for f32: odd polynomial over even polynomial on [-4, 4], where erf is ±1 to
//! f32 precision beyond). Branch-free, so the compiler vectorises the loop; libm's `erff` is scalar and
//! branchy, and was a tenth of a forward pass.

/// erf(x) to within a few f32 ulps.
#[inline(always)]
pub fn erf(x: f32) -> f32 {
    // `clamp` compares; `f32::max`/`min` would be calls to libm's fmaxf/fminf on wasm, which stop vectorising.
    let x = x.clamp(-4.0, 4.0);
    let x2 = x * x;
    let mut p = -2.726_142_3e-10f32;
    for c in [2.770_681_4e-8, -2.101_024e-6, -5.692_506_4e-5, -7.349_906_3e-4, -2.954_6e-3, -1.609_603_3e-2] {
        p = p * x2 + c;
    }
    let mut q = -1.456_607_2e-5f32;
    for c in [-2.133_740_6e-4, -1.682_827e-3, -7.373_329e-3, -1.426_474e-2] {
        q = q * x2 + c;
    }
    x * p / q
}

/// GELU's tanh approximation (`gelu_new`, candle's `gelu`), in place.
pub fn gelu_tanh_in_place(values: &mut [f32]) {
    let c = (2.0f32 / std::f32::consts::PI).sqrt();
    for v in values.iter_mut() {
        *v = 0.5 * *v * (1.0 + (c * (*v + 0.044715 * *v * *v * *v)).tanh());
    }
}

/// Applies GELU to every value in place.
pub fn gelu_in_place(values: &mut [f32]) {
    for v in values.iter_mut() {
        *v *= 0.5 * (1.0 + erf(*v * std::f32::consts::FRAC_1_SQRT_2));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn erf_matches_libm_over_the_whole_range() {
        let mut worst = 0.0f64;
        for i in -80_000..=80_000 {
            let x = i as f32 / 10_000.0;
            worst = worst.max((f64::from(erf(x)) - libm::erf(f64::from(x))).abs());
        }
        assert!(worst < 1e-6, "largest error {worst}");
        assert_eq!(erf(0.0), 0.0);
        assert_eq!(erf(f32::INFINITY), erf(4.0));
    }

    #[test]
    fn gelu_matches_its_definition() {
        let mut values = [-3.0f32, -0.5, 0.0, 0.7, 2.5, 10.0];
        let want: Vec<f64> =
            values.iter().map(|x| f64::from(*x) * 0.5 * (1.0 + libm::erf(f64::from(*x) / 2f64.sqrt()))).collect();
        gelu_in_place(&mut values);
        for (got, want) in values.iter().zip(want) {
            assert!((f64::from(*got) - want).abs() < 1e-5, "{got} vs {want}");
        }
    }
}
