// Browser and bundler entry: fetches and instantiates the .wasm next to the glue (bundlers such as Vite and
// webpack 5 rewrite the URL), then re-exports the API. Uses top-level await, so importers get a ready module.
import init, { Memory as CoreMemory } from "./dist/memwasm.js";
import { withLocalProvider } from "./local-embedder/provider.mjs";

await init();

export * from "./dist/memwasm.js";
export { MemoryError, LLMError } from "./dist/errors.js";

/** The core's Memory, plus `embedder: {provider: "local"}` (memwasm/local-embedder, imported on first use). */
export const Memory = withLocalProvider(CoreMemory, () => import("./local-embedder/index.browser.mjs"));
