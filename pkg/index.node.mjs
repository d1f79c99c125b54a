// Node entry: loads the one .wasm synchronously from disk, so `import { Memory } from "memwasm"` is ready at once
// (and `require("memwasm")` works on Node versions that can require ES modules).
import { readFileSync } from "node:fs";
import { initSync, Memory as CoreMemory } from "./dist/memwasm.js";
import { withLocalProvider } from "./local-embedder/provider.mjs";
import { withSqliteStorage } from "./sqlite.mjs";
import { withSync } from "./sync.mjs";
import { withImport } from "./import/index.mjs";

initSync({ module: readFileSync(new URL("./dist/memwasm_bg.wasm", import.meta.url)) });

export * from "./dist/memwasm.js";
export { openSqlite } from "./sqlite.mjs";
export { MemoryError, LLMError } from "./dist/errors.js";

/** The core's Memory, plus `sync()`, `importConversations()` (import/), `storage: {provider: "sqlite"}` (a database file, opened here) and
 * `embedder: {provider: "local"}` (memwasm/local-embedder, imported on first use). */
export const Memory = withImport(withSync(withLocalProvider(withSqliteStorage(CoreMemory), () => import("./local-embedder/index.node.mjs"))));
