// A deterministic pseudo-random unit vector (xorshift32), for benches that need many distinct vectors.
export function unitVector(seed, dim) {
  let x = (seed * 2654435761) >>> 0 || 1;
  const v = Array.from({ length: dim }, () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return ((x >>> 0) / 4294967296) * 2 - 1;
  });
  const norm = Math.hypot(...v);
  return v.map((value) => value / norm);
}
