// memwasm/otel inside a plain JS Worker in workerd: wrangler bundles the package, memwasm/otel and
// OpenTelemetry's SDK; one add() and one search() give their spans, with the model calls under them.
import assert from "node:assert/strict";
import { test } from "node:test";
import { EXTRACT, DECIDE, T, bundleJsWorker, startBundle, startServer, tempDir } from "./helpers.mjs";

test("a JS Worker traces add() and search() with memwasm/otel", { ...T, timeout: 120_000 }, async (t) => {
  const outdir = tempDir(t);
  bundleJsWorker("js-worker-otel", outdir);
  const server = await startServer();
  t.after(() => server.close());
  server.script([
    { kind: "chat", match: [EXTRACT, "green tea"], reply: { facts: ["Drinks green tea every morning"] } },
    { kind: "chat", match: [DECIDE, "green tea"], reply: { memory: [{ text: "Drinks green tea every morning", event: "ADD" }] } },
  ]);
  const mf = startBundle(outdir, {
    compatibilityFlags: ["nodejs_compat"],
    bindings: { OPENAI_BASE_URL: server.baseUrl, OPENAI_API_KEY: "test-key" },
  });
  t.after(() => mf.dispose());
  const response = await mf.dispatchFetch("http://worker/trace");
  const { found, spans } = await response.json();
  assert.equal(response.status, 200, JSON.stringify(spans));
  assert.equal(found, 1);
  const add = spans.find((s) => s.attributes["gen_ai.operation.name"] === "upsert_memory");
  const search = spans.find((s) => s.attributes["gen_ai.operation.name"] === "search_memory");
  assert.ok(add && search, spans.map((s) => s.name).join(", "));
  const under = (op) => spans.filter((s) => s.parent === op.id).map((s) => s.attributes["gen_ai.operation.name"]);
  assert.ok(under(add).includes("chat") && under(add).includes("embeddings"), JSON.stringify(under(add)));
  assert.ok(under(search).includes("embeddings"), JSON.stringify(under(search)));
  assert.ok(spans.every((s) => !JSON.stringify(s.attributes).includes("green tea")), "no memory text in attributes");
});
