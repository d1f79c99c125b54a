// Cloudflare Workers entry (the `workerd` export condition, which wrangler's bundler uses): workerd
// compiles the .wasm at deploy time and hands it over as a module, so instantiation is synchronous and does no I/O.
import wasm from "./dist/memwasm_bg.wasm";
import { initSync, Memory } from "./dist/memwasm.js";
import { addSync } from "./sync.mjs";

initSync({ module: wasm });
addSync(Memory.prototype);

export * from "./dist/memwasm.js";
export { MemoryError, LLMError } from "./dist/errors.js";
