// The npm package inside a plain JS Worker: wrangler bundles tests/js-worker/index.mjs (resolving memwasm's
// `workerd` entry, which imports the .wasm as a module), and workerd runs it with a KV binding.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { Memory } from "memwasm";
import { EXTRACT, T, allKeys, bundleJsWorker, scriptAdd, startBundle, startServer, tempDir } from "./helpers.mjs";

const start = (outdir, server, persist) =>
  startBundle(outdir, {
    kvNamespaces: ["MEMORY_KV"],
    kvPersist: persist,
    bindings: { OPENAI_BASE_URL: server.baseUrl, OPENAI_API_KEY: "test-key" },
  });

test("a JS Worker importing memwasm adds and searches memories in KV", { timeout: 120_000 }, async (t) => {
  const outdir = tempDir(t);
  const files = bundleJsWorker("js-worker", outdir);
  assert.ok(files.some((file) => file.endsWith(".wasm")), `the .wasm ships as a module: ${files}`);
  const code = readFileSync(join(outdir, "index.js"), "utf8");
  assert.match(code, /\/index\.workerd\.mjs/, "wrangler resolved the package's workerd entry");
  const server = await startServer();
  t.after(() => server.close());
  const persist = tempDir(t);

  const first = start(outdir, server, persist);
  const input = scriptAdd(server, ["User likes green tea", "User lives in Lisbon"]);
  const added = await first.dispatchFetch("http://js.test/add", {
    method: "POST",
    body: JSON.stringify({ text: input, userId: "alice" }),
  });
  assert.equal(added.status, 200);
  const { results } = await added.json();
  assert.deepEqual(results.map((e) => [e.event, e.memory]), [
    ["ADD", "User likes green tea"],
    ["ADD", "User lives in Lisbon"],
  ]);
  const keys = await allKeys(await first.getKVNamespace("MEMORY_KV"));
  assert.ok(keys.length > 0 && keys.every((key) => key.startsWith("memwasm/")), keys.join("\n"));
  assert.ok(keys.includes(`memwasm/mem/${results[0].id}`));
  await first.dispose();

  const second = start(outdir, server, persist);
  t.after(() => second.dispose());
  const found = await second.dispatchFetch("http://js.test/search?q=where%20does%20she%20live%20Lisbon&userId=alice");
  assert.equal(found.status, 200);
  const { results: hits } = await found.json();
  assert.equal(hits[0].memory, "User lives in Lisbon");
  assert.equal(hits[0].userId, "alice", "the npm package answers in camelCase");
  const history = await (await second.dispatchFetch(`http://js.test/history?id=${hits[0].id}`)).json();
  assert.deepEqual(history.map((r) => r.event), ["ADD"]);

  const noScope = await second.dispatchFetch("http://js.test/search?q=tea");
  assert.equal(noScope.status, 400);
  assert.equal((await noScope.json()).error.code, "SCOPE_REQUIRED");
  assert.equal(server.requests("chat").filter((r) => String(r.body?.messages?.[0]?.content).startsWith(EXTRACT)).length, 1);
});

test("a Worker whose wrangler config lacks the KV binding: INVALID_CONFIG saying where to declare it", { timeout: 120_000 }, async (t) => {
  const outdir = tempDir(t);
  bundleJsWorker("js-worker", outdir);
  const worker = startBundle(outdir, { bindings: { OPENAI_BASE_URL: "http://127.0.0.1:9", OPENAI_API_KEY: "test-key" } });
  t.after(() => worker.dispose());
  const response = await worker.dispatchFetch("http://js.test/search?q=tea&userId=alice");
  assert.equal(response.status, 400);
  const { error } = await response.json();
  assert.equal(error.code, "INVALID_CONFIG");
  assert.doesNotMatch(error.message, /unknown field/, "binding is a known field, only missing");
  assert.match(error.message, /storage\.binding: required/);
  assert.match(error.message, /kv_namespaces/, "names the wrangler config section");
  assert.match(error.message, /env\.MEMORY_KV/);
});

test("the KV storage config is checked: binding required, a real binding, a string prefix", T, () => {
  const invalid = (storage, pattern) =>
    assert.throws(
      () => new Memory({ llm: { provider: "none" }, embedder: { provider: "none" }, storage }),
      (error) => error.code === "INVALID_CONFIG" && pattern.test(error.message),
    );
  invalid({ provider: "cloudflare-kv" }, /storage\.binding: required/);
  invalid({ provider: "cloudflare-kv", binding: {} }, /storage\.binding: must be a KV namespace binding/);
  invalid({ provider: "cloudflare-kv", binding: "MEMORY_KV" }, /storage\.binding/);
  const binding = { get() {}, put() {}, delete() {}, list() {} };
  invalid({ provider: "cloudflare-kv", binding, config: { prefix: 5 } }, /storage\.config\.prefix/);
  invalid({ provider: "cloudflare-kv", binding, config: { namespace: "x" } }, /unknown field `namespace`/);
  invalid({ provider: "cloudfare-kv", binding }, /cloudflare-kv/);
  assert.ok(new Memory({ llm: { provider: "none" }, embedder: { provider: "none" }, storage: { provider: "cloudflare-kv", binding } }));
});
