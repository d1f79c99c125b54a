// Cloudflare Workers entry (the `workerd` export condition, which wrangler's bundler uses): workerd
// compiles the .wasm at deploy time and hands it over as a module, so instantiation is synchronous and does no I/O.
import wasm from "./dist/memwasm_bg.wasm";
import { initSync, Memory as CoreMemory } from "./dist/memwasm.js";
import { withSync } from "./sync.mjs";
import { withImport } from "./import/index.mjs";

initSync({ module: wasm });

export * from "./dist/memwasm.js";
export { MemoryError, LLMError } from "./dist/errors.js";

/** The module's Memory, plus `sync()`, `syncLive()` and `importConversations()` (import/). */
export const Memory = withImport(withSync(CoreMemory));
