// add()'s write cost: `adds` sequential `infer: false` adds (a fixed vector from a custom embedder, no LLM) on
// `storage`, against the same in memory, in ms per add. Self-contained, so that bench/browser.mjs can run its
// source in the page (`page.evaluate`) and bench/sqlite.mjs in Node.
export async function timeAdds(Memory, storage, adds, dim) {
  const one = Array.from({ length: dim }, (_, i) => (i === 0 ? 1 : 0));
  const perAdd = async (storage, count, userId) => {
    const memory = await Memory.open({
      llm: { provider: "none" },
      embedder: { provider: "custom", dimensions: dim, embed: async (texts) => texts.map(() => one) },
      ...(storage ? { storage } : {}),
    });
    try {
      const started = performance.now();
      for (let i = 0; i < count; i++) await memory.add("note " + i, { userId, infer: false });
      const ms = (performance.now() - started) / count;
      const stored = (await memory.getAll({ userId })).totalCount;
      if (stored !== count) throw new Error(`${stored} of ${count} adds stored`);
      return ms;
    } finally {
      memory.close();
    }
  };
  await perAdd(undefined, 20, "warm-up");
  const inMemoryMs = await perAdd(undefined, adds, "w");
  const storageMs = await perAdd(storage, adds, "w");
  return { adds, storageMs, inMemoryMs, writeMs: storageMs - inMemoryMs };
}
