// The Worker blocks of the manual (README.md's and docs/worker.md's "npm package in your Worker") run as
// written in workerd: wrangler bundles each block as a Worker's main module with a KV binding, and the block's
// requests to api.openai.com are answered by the scripted server (Miniflare's outbound service forwards them,
// which stands in for the base URL). Each request adds its text and answers with a search of it; a second
// request's new Memory reads the first one's memory from KV.
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import { test } from "node:test";
import { Response } from "miniflare";
import { blocksRunBy } from "../../tests/node/docs-pages.mjs";
import { DECIDE, EXTRACT, allKeys, bundleJsWorker, startBundle, startServer, tempDir } from "./helpers.mjs";

const blocks = blocksRunBy("worker/tests/docs-blocks.test.mjs");

/** `block` as the main module of a Worker with the KV binding it reads, bundled by wrangler into a temp folder. */
function bundleBlock(t, block) {
  // Inside worker/tests, so that wrangler resolves "memwasm" to the package.
  const folder = mkdtempSync(join(new URL(".", import.meta.url).pathname, ".docs-block-"));
  t.after(() => rmSync(folder, { recursive: true, force: true }));
  writeFileSync(join(folder, "index.mjs"), block.code);
  writeFileSync(join(folder, "wrangler.toml"),
    'name = "docs-block"\nmain = "index.mjs"\ncompatibility_date = "2026-04-01"\n[[kv_namespaces]]\nbinding = "MEMORY_KV"\nid = "local"\n');
  const outdir = tempDir(t);
  bundleJsWorker(basename(folder), outdir);
  return outdir;
}

/** Miniflare's outbound service: a request to the OpenAI API goes to `server`, with its path; others fail. */
function toScripted(server, hosts) {
  return async (request) => {
    const url = new URL(request.url);
    hosts.push(url.host);
    if (url.host !== "api.openai.com") return new Response("no such host", { status: 502 });
    const body = request.method === "GET" ? undefined : await request.arrayBuffer();
    const answer = await fetch(`${server.url}${url.pathname}`, { method: request.method, headers: request.headers, body });
    return new Response(await answer.arrayBuffer(), { status: answer.status, headers: answer.headers });
  };
}

test("the manual's Worker blocks are found", () => {
  assert.deepEqual(blocks.map((b) => b.page).sort(), ["README.md", "docs/worker.md"]);
});

for (const block of blocks) {
  test(`${block.page}:${block.line}: the Worker adds each request's text to KV and answers with its search`, { timeout: 180_000 }, async (t) => {
    const outdir = bundleBlock(t, block);
    const server = await startServer();
    t.after(() => server.close());
    const hosts = [];
    const worker = startBundle(outdir, {
      kvNamespaces: ["MEMORY_KV"], bindings: { OPENAI_API_KEY: "test-key" }, outboundService: toScripted(server, hosts),
    });
    t.after(() => worker.dispose());
    server.script([
      { kind: "chat", match: [EXTRACT, "I just moved to Lisbon"], reply: { facts: ["User lives in Lisbon"] } },
      { kind: "chat", match: [DECIDE, "User lives in Lisbon"], reply: { memory: [{ text: "User lives in Lisbon", event: "ADD" }] } },
      { kind: "chat", match: [EXTRACT], reply: { facts: [] } },
    ]);
    const post = (text) => worker.dispatchFetch("http://docs.test/", { method: "POST", body: JSON.stringify({ userId: "alice", text }) });

    const first = await post("I just moved to Lisbon");
    assert.equal(first.status, 200, await first.clone().text());
    assert.deepEqual((await first.json()).results.map((m) => [m.memory, m.userId]), [["User lives in Lisbon", "alice"]]);
    const keys = await allKeys(await worker.getKVNamespace("MEMORY_KV"));
    assert.ok(keys.length > 0 && keys.every((key) => key.startsWith("memwasm/")), `the default prefix: ${keys.join(" ")}`);

    // A new Memory for the next request: it reads alice's memory from KV.
    const second = await post("Which city is it that I live in, Lisbon?");
    assert.equal(second.status, 200);
    assert.equal((await second.json()).results[0]?.memory, "User lives in Lisbon");
    assert.ok(hosts.length > 0 && hosts.every((host) => host === "api.openai.com"), `the block calls OpenAI: ${hosts}`);
    assert.ok(server.requests("chat").every((r) => r.headers.authorization === "Bearer test-key"), "env.OPENAI_API_KEY");
  });
}
