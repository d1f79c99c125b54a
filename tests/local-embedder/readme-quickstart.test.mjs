// The README's first quickstart block runs as written in Node: the on-device embedder with the weights that
// `bash scripts/setup.sh minilm-weights` fetched (MINILM_DIR when set), no LLM, no key, no network.
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { promisify } from "node:util";

const readme = readFileSync(new URL("../../README.md", import.meta.url), "utf8");

test("README quickstart: offline search by meaning finds the memory that shares no word with the query", { timeout: 240_000 }, async (t) => {
  const section = readme.split("\n## Quickstart\n")[1];
  const [code] = [...section.matchAll(/```js\n([\s\S]*?)```/g)].map(([, block]) => block);
  assert.match(code, /provider: "local"/);
  // Beside tests/local-embedder/node_modules, so that "memwasm" resolves to the package.
  const dir = mkdtempSync(join(new URL(".", import.meta.url).pathname, ".readme-"));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, "quickstart.mjs");
  const weights = process.env.MINILM_DIR ? code.replace("`${process.env.HOME}/.cache/memwasm/minilm`", JSON.stringify(process.env.MINILM_DIR)) : code;
  writeFileSync(file, `${weights}\nconsole.log(JSON.stringify(found.results.map((m) => m.memory)));\n`);
  const { stdout } = await promisify(execFile)(process.execPath, [file], { timeout: 200_000 });
  assert.deepEqual(JSON.parse(stdout), ["I am allergic to peanuts"]);
});
