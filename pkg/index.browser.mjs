// Browser and bundler entry: fetches and instantiates the core .wasm next to its glue (bundlers such as Vite
// and webpack 5 rewrite the URL), then re-exports the API. Uses top-level await, so importers get a ready
// module. The full .wasm (graph memory, conversations, documents, Chroma, KV) is fetched on first use:
// see split.mjs and docs/size.md.
import init, * as core from "./dist/core/memwasm.js";
import { splitMemory } from "./split.mjs";
import { withSync } from "./sync.mjs";
import { withImport } from "./import/index.mjs";
import { withLocalProvider } from "./local-embedder/provider.mjs";

await init();

/** The full module, fetched and instantiated. */
async function loadFull() {
  const full = await import("./dist/memwasm.js");
  await full.default();
  return full;
}

export * from "./dist/core/memwasm.js";
export { MemoryError, LLMError } from "./dist/errors.js";

/** The Memory of both modules, plus `importConversations()` (import/), `embedder: {provider: "local"}` (memwasm/local-embedder, imported on first use). */
export const Memory = withImport(withSync(withLocalProvider(splitMemory(core, loadFull), () => import("./local-embedder/index.browser.mjs"))));
