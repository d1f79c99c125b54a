// Small helpers shared by the bench scripts.

/** Median of a list of numbers. */
export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** Fraction of the exact top-k rows found, over all queries. */
export function recall(exact, found) {
  let hit = 0;
  let total = 0;
  exact.forEach((want, q) => {
    const got = new Set(found[q]);
    total += want.length;
    hit += want.filter((row) => got.has(row)).length;
  });
  return total ? hit / total : 1;
}

/** Float32Array view of a file's bytes (copied only when the buffer is misaligned). */
export function floats(buffer) {
  return buffer.byteOffset % 4 === 0
    ? new Float32Array(buffer.buffer, buffer.byteOffset, buffer.byteLength / 4)
    : new Float32Array(new Uint8Array(buffer).buffer);
}

/** Uint32Array view of a file's bytes. */
export function uints(buffer) {
  return buffer.byteOffset % 4 === 0
    ? new Uint32Array(buffer.buffer, buffer.byteOffset, buffer.byteLength / 4)
    : new Uint32Array(new Uint8Array(buffer).buffer);
}
