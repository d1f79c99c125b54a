// `memwasm/mem0` (browser condition): everything of index.browser.mjs, with the Memory of mem0.mjs keeping its
// memories in the browser's equivalent of mem0's file: the IndexedDB database named by
// `vectorStore.config.collectionName` (mem0's default, "memories"), opened on the first call. An explicit
// `storage` wins; `vectorStore.config.dbPath: ":memory:"` keeps them in RAM, as in mem0.
import { Memory as Base } from "./index.browser.mjs";
import { mem0Memory, opensLater } from "./mem0.mjs";

export * from "./index.browser.mjs";
export const Memory = mem0Memory(Base, keep);

/** Where `settings` keeps its memories (see mem0Memory); IndexedDB databases are shared by their own means. */
function keep(settings) {
  const storage = settings.storage;
  if (storage) return opensLater(storage) ? { open: () => Base.open(settings) } : undefined;
  const vectorStore = settings.vectorStore?.config;
  if (vectorStore?.dbPath === ":memory:") return undefined;
  const dbName = vectorStore?.collectionName || "memories";
  return { open: () => Base.open({ ...settings, storage: { provider: "indexeddb", config: { dbName } } }) };
}
