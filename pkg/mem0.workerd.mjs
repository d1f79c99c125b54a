// `memwasm/mem0` (workerd condition): everything of index.workerd.mjs, with the Memory of mem0.mjs. A Worker
// has no file for mem0's default store: memories are kept where `storage` says (a Workers KV binding, opened
// on the first call), else in this isolate's RAM, with a startup warning naming the fix; `vectorStore.config.
// dbPath: ":memory:"` asks for RAM and is not warned about.
import { Memory as Base } from "./index.workerd.mjs";
import { mem0Memory, opensLater, startupWarning } from "./mem0.mjs";

export * from "./index.workerd.mjs";
export const Memory = mem0Memory(Base, keep);

/** Where `settings` keeps its memories (see mem0Memory). */
function keep(settings) {
  const storage = settings.storage;
  if (storage) return opensLater(storage) ? { open: () => Base.open(settings) } : undefined;
  if (settings.vectorStore?.config?.dbPath !== ":memory:") {
    const fix = 'give the config storage: { provider: "cloudflare-kv", binding: env.<your KV namespace> } (docs/worker.md)';
    startupWarning("STORAGE_UNAVAILABLE", `a Worker has no file for mem0's vector store: memories are kept in this isolate's RAM and lost when it ends; ${fix}`);
  }
  return undefined;
}
