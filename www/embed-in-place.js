// Embeds in place what the offline provider stored while it searched by keyword, once the on-device model
// is on: every memory is exported and imported back into the same database, and the import embeds those
// that came without a vector (memories that have one keep it, history is not added twice). All or nothing:
// until the write commits, the store is as it was.

/**
 * Embeds `memory`'s vectorless memories; `onProgress(fraction, sentence)` as it goes. Resolves to how many
 * texts were embedded. When the stored vectors are another embedding model's (another length), it rejects
 * with `DIMENSION_MISMATCH` first (a vector search in `scope` embeds a query and compares), writing nothing.
 */
export async function embedInPlace(memory, scope, onProgress) {
  onProgress(0, "Embedding the memories already stored…");
  await memory.search("the stored vectors' length", { ...scope, method: "vector", limit: 1 });
  let embedded = 0;
  await memory.importMemories(await memory.exportMemories({}), {
    onProgress: ({ phase, done, total }) => {
      if (phase !== "embed") return;
      embedded = total;
      onProgress(total > 0 ? done / total : 1, `Embedding the memories already stored: ${done} of ${total}…`);
    },
  });
  return embedded;
}
