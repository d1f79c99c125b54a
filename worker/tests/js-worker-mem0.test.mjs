// mem0 code in a Worker, on `memwasm/mem0` (docs/mem0.md#where-memories-are-kept): a Worker has no file for
// mem0's default store, so a Memory without `storage` keeps memories in the isolate's RAM and its first
// `new Memory` logs a startup warning (STORAGE_UNAVAILABLE) naming the fix; with a KV binding as `storage`
// the memories persist from one isolate to the next, with no warning.
import assert from "node:assert/strict";
import { test } from "node:test";
import { bundleJsWorker, startBundle, startServer, tempDir } from "./helpers.mjs";

const add = (worker, body) =>
  worker.dispatchFetch("http://mem0.test/add", { method: "POST", body: JSON.stringify(body) }).then((r) => r.json());

test("memwasm/mem0 in a Worker: a startup warning instead of a silent RAM store; KV persists", { timeout: 120_000 }, async (t) => {
  const outdir = tempDir(t);
  bundleJsWorker("js-worker-mem0", outdir);
  const server = await startServer();
  t.after(() => server.close());
  const persist = tempDir(t);
  const start = () =>
    startBundle(outdir, {
      kvNamespaces: ["MEMORY_KV"],
      kvPersist: persist,
      bindings: { OPENAI_BASE_URL: server.baseUrl, OPENAI_API_KEY: "test-key" },
    });

  const first = start();
  const inRam = await add(first, { text: "User likes tea", userId: "alice" });
  assert.deepEqual(inRam.memories, ["User likes tea"]);
  assert.equal(inRam.warned.length, 1, JSON.stringify(inRam));
  assert.match(inRam.warned[0], /\[STORAGE_UNAVAILABLE\].*RAM.*storage: \{ provider: "cloudflare-kv", binding: env\./);
  const inKv = await add(first, { text: "User plays chess", userId: "bob", kv: true });
  assert.deepEqual([inKv.memories, inKv.warned], [["User plays chess"], []]);
  await first.dispose();

  const second = start(); // another isolate: KV still holds bob's memory
  t.after(() => second.dispose());
  const again = await add(second, { text: "User runs", userId: "bob", kv: true });
  assert.deepEqual(again.memories.sort(), ["User plays chess", "User runs"]);
});
