// pkg/README.md, the page npm shows for the package, runs as written: its example in a Node process of its
// own, with the key and the model host in the environment (the scripted server in place of OpenAI).
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { T, scriptedServer } from "./helpers.mjs";

const server = scriptedServer();
const page = readFileSync(new URL("../../pkg/README.md", import.meta.url), "utf8");

test("pkg/README.md: the example adds and finds a memory", T, async (t) => {
  const [code] = [...page.matchAll(/```js\n([\s\S]*?)```/g)].map(([, block]) => block);
  assert.ok(code, "the page has an example");
  server.script([
    { kind: "chat", match: ["extracting", "Berlin"], reply: { facts: ["User moved to Berlin last spring"] } },
    { kind: "chat", match: ["memory management"], reply: { memory: [{ text: "User moved to Berlin last spring", event: "ADD" }] } },
  ]);
  // Next to tests/node_modules, so that "memwasm" resolves to the package as the other tests get it.
  const dir = mkdtempSync(join(new URL("..", import.meta.url).pathname, ".readme-"));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, "example.mjs");
  writeFileSync(file, `${code}\nconsole.log(JSON.stringify(results.map((m) => m.memory)));\n`);
  const env = { ...process.env, OPENAI_API_KEY: "sk-test", OPENAI_BASE_URL: server.baseUrl };
  const { stdout } = await promisify(execFile)(process.execPath, [file], { env, timeout: 20_000 });
  assert.deepEqual(JSON.parse(stdout), ["User moved to Berlin last spring"]);
});
