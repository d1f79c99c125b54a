//! Peak f32 throughput of one core, measured by register-only kernels: every iteration updates
//! independent accumulators, so nothing waits on memory and the chains are long enough to fill the
//! floating-point ports. The kernels mirror a matmul microkernel's inner step (`acc += a * b`):
//!
//! - wasm32: `f32x4` multiply then add (SIMD128 has no fused multiply-add), and with the `relaxed`
//!   feature `f32x4.relaxed_madd` (fused where the engine and CPU allow).
//! - x86-64: the same 4-lane multiply then add (SSE), and 8-lane fused multiply-add (AVX2+FMA), which
//!   is what gemm runs natively for candle.
//!
//! Each kernel returns the sum of its accumulators so no work can be optimised away. A call does
//! `iterations × ACCUMULATORS × lanes × 2` floating-point operations.

/// Independent accumulators per kernel: enough to cover the add (or FMA) latency on both ports.
pub const ACCUMULATORS: usize = 10;

#[cfg(target_arch = "wasm32")]
mod wasm;
#[cfg(target_arch = "x86_64")]
pub mod x86;
