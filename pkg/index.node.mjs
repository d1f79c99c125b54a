// Node entry: loads the one .wasm synchronously from disk, so `import { Memory } from "memwasm"` is ready at once
// (and `require("memwasm")` works on Node versions that can require ES modules).
import { readFileSync } from "node:fs";
import { initSync } from "./dist/memwasm.js";

initSync({ module: readFileSync(new URL("./dist/memwasm_bg.wasm", import.meta.url)) });

export * from "./dist/memwasm.js";
export { MemoryError, LLMError } from "./dist/errors.js";
