// Deterministic pseudo-random numbers (xorshift32) for the benches' data sets.

/** A seeded generator of uniform numbers in [0, 1). */
export function generator(seed) {
  let x = seed >>> 0 || 1;
  return () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) / 4294967296;
  };
}

/** A unit vector of `dim` values from seed `seed`, for benches that need many distinct vectors. */
export function unitVector(seed, dim) {
  const random = generator(seed * 2654435761);
  const v = Array.from({ length: dim }, () => random() * 2 - 1);
  const norm = Math.hypot(...v);
  return v.map((value) => value / norm);
}
