// The app a user writes: `import { Memory } from "memwasm"`, bundled by Vite, run in the browser. The test
// (tests/installed/vite.test.mjs) calls `window.app.*` through playwright-core.
import { Memory, MemoryError } from "memwasm";
import type { MemoryConfig, SearchResult } from "memwasm";

/** A memory on IndexedDB database `dbName`, with the scripted model server at `baseUrl`. */
function open(baseUrl: string, dbName: string): Promise<Memory> {
  const config: MemoryConfig = {
    llm: { provider: "openai", config: { baseUrl, apiKey: "test", model: "scripted" } },
    embedder: { provider: "openai", config: { baseUrl, apiKey: "test", dimensions: 64 } },
    storage: { provider: "indexeddb", config: { dbName } },
    retry: { maxRetries: 0 },
  };
  return Memory.open(config);
}

const app = {
  /** Adds `text` through the LLM pipeline; returns the events. */
  async add(baseUrl: string, dbName: string, text: string, userId: string): Promise<string[]> {
    const memory = await open(baseUrl, dbName);
    const { results } = await memory.add(text, { userId });
    return results.map((event) => `${event.event} ${event.memory}`);
  },

  /** The memories found for `query`, best first (a fresh Memory: what IndexedDB holds). */
  async search(baseUrl: string, dbName: string, query: string, userId: string): Promise<string[]> {
    const memory = await open(baseUrl, dbName);
    const found: SearchResult = await memory.search(query, { userId, limit: 3 });
    return found.results.map((item) => item.memory);
  },

  /** A search without a scope: the coded error a user can branch on. */
  async missingScope(baseUrl: string, dbName: string): Promise<string> {
    const memory = await open(baseUrl, dbName);
    try {
      await memory.search("anything", {});
      return "no error";
    } catch (error) {
      return error instanceof MemoryError ? error.code : `not a MemoryError: ${error}`;
    }
  },

  /** A dry run of importing the scope's own export: the importer is a chunk of its own, fetched on this call. */
  async importDryRun(baseUrl: string, dbName: string, userId: string): Promise<number> {
    const memory = await open(baseUrl, dbName);
    const text = await memory.exportMemories({ userId });
    const report = await memory.importConversations(text, { userId, dryRun: true });
    return report.memories ?? 0;
  },

  /** The on-device embedder (a second entry, loaded on demand): see local.ts. */
  async local(weights: string, tokenizer: string, dbName: string): Promise<string[]> {
    const { addAndSearch } = await import("./local.ts");
    return addAndSearch(weights, tokenizer, dbName);
  },
};

declare global {
  interface Window {
    app: typeof app;
  }
}
window.app = app;
document.querySelector<HTMLPreElement>("#app")!.textContent = "ready";
document.documentElement.dataset.ready = "true";
