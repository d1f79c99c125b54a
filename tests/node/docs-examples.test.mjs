// The JavaScript blocks of the manual pages on timeouts, retries, degraded reads and search quality run as written, against
// the scripted server: `memory` is a memory of the standard test config holding one of alice's memories.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { T, Memory, makeMemory, scriptedServer } from "./helpers.mjs";

const server = scriptedServer();
const AsyncFunction = (async () => {}).constructor;

/** The ```js blocks of `page` (a path under docs/), without their `import … from "memwasm"` lines. */
function blocks(page) {
  const text = readFileSync(new URL(`../../docs/${page}`, import.meta.url), "utf8");
  return [...text.matchAll(/```js\n([\s\S]*?)```/g)].map(([, code]) => code.replace(/^import .* from "memwasm";$/gm, ""));
}

for (const page of ["timeouts-and-retries.md", "degraded-reads.md", "search-quality.md"]) {
  test(`docs/${page}: every JavaScript block runs`, T, async () => {
    const found = blocks(page);
    assert.ok(found.length > 0, "the page has JavaScript blocks");
    for (const code of found) {
      const memory = makeMemory(server);
      await memory.add("User likes green tea", { userId: "alice", infer: false });
      const said = [];
      const console = { warn: (...args) => said.push(args.join(" ")), log: (...args) => said.push(args.join(" ")) };
      // A block that makes its own `memory` gets none.
      const names = /\b(const|let) memory\b/.test(code) ? ["Memory", "console"] : ["Memory", "console", "memory"];
      await new AsyncFunction(...names, code)(Memory, console, memory);
    }
  });
}
