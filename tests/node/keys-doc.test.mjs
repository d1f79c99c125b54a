// docs/keys-in-the-browser.md runs as written: its forwarding route in a process of its own with the key in
// that process's environment, and its page code against the route (with the in-memory store: Node has no
// IndexedDB). Every request reaching the model host carries the server's key; the page's config has none.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { T, Memory, scriptedServer } from "./helpers.mjs";

const server = scriptedServer();
const AsyncFunction = (async () => {}).constructor;
const page = readFileSync(new URL("../../docs/keys-in-the-browser.md", import.meta.url), "utf8");
const [route, browser] = [...page.matchAll(/```js\n([\s\S]*?)```/g)].map(([, code]) => code);

const freePort = () => new Promise((resolve) => {
  const probe = createServer().listen(0, "127.0.0.1", () => {
    const { port } = probe.address();
    probe.close(() => resolve(port));
  });
});

test("keys in the browser: the page's memory reaches the model only through the route, which adds the key", T, async (t) => {
  assert.ok(route && browser, "the page has the route and the page code");
  const dir = mkdtempSync(join(tmpdir(), "memwasm-keys-"));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(join(dir, "route.mjs"), route);
  const port = await freePort();
  const child = spawn(process.execPath, [join(dir, "route.mjs")], {
    env: { ...process.env, PORT: String(port), OPENAI_API_KEY: "sk-server-only", OPENAI_BASE_URL: server.baseUrl },
    stdio: "inherit",
  });
  t.after(() => child.kill());
  const origin = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 100; i++) {
    if (await fetch(`${origin}/llm/embeddings`, { method: "GET" }).then((r) => r.status === 404, () => false)) break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  server.script([
    { kind: "chat", match: ["extracting", "Berlin"], reply: { facts: ["User lives in Berlin"] } },
    { kind: "chat", match: ["memory management"], reply: { memory: [{ text: "User lives in Berlin", event: "ADD" }] } },
  ]);

  // The page's code, with `location` of a page served from the route's origin and without the storage line.
  const code = browser.replace(/^import .* from "memwasm";$/m, "").replace(/^\s*storage: .*\n/m, "") + "\nreturn results;";
  assert.doesNotMatch(code, /apiKey/, "the page's config holds no key");
  const results = await new AsyncFunction("Memory", "location", code)(Memory, { origin });

  assert.equal(results[0]?.memory, "User lives in Berlin");
  const seen = server.requests();
  assert.ok(seen.length >= 3, `the model host saw the calls (${seen.length})`);
  for (const request of seen) assert.equal(request.headers.authorization, "Bearer sk-server-only", request.path);
});
