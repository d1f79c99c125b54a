// memwasm/otel in headless Chromium: the page imports the package, memwasm/otel and a bundle of
// OpenTelemetry's SDK; one add() and one search() give their spans, with the model calls under them.
import assert from "node:assert/strict";
import { mkdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { after, before, test } from "node:test";
import { build } from "esbuild";
import { harness } from "./harness.mjs";

const ROOT = new URL("../../", import.meta.url);
let h;
before(async () => {
  mkdirSync(new URL("tests/artifacts/", ROOT), { recursive: true });
  await build({
    entryPoints: [fileURLToPath(new URL("otel-entry.mjs", import.meta.url))],
    bundle: true, format: "esm", platform: "browser", logLevel: "error",
    outfile: fileURLToPath(new URL("tests/artifacts/otel-sdk.mjs", ROOT)),
  });
  h = await harness();
});
after(() => h?.close());

test("a page traces add() and search() with memwasm/otel", { timeout: 120_000 }, async () => {
  h.llm.script([
    { kind: "chat", match: ["extracting", "green tea"], reply: { facts: ["Drinks green tea every morning"] } },
    { kind: "chat", match: ["memory management", "green tea"], reply: { memory: [{ text: "Drinks green tea every morning", event: "ADD" }] } },
  ]);
  const browser = await h.launch(h.profile());
  const page = await h.openPage(browser.context);
  const { storage, ...config } = h.config("unused");
  const result = await page.evaluate(async (config) => {
    const otel = await import("/tests/artifacts/otel-sdk.mjs");
    const { withTracing } = await import("/pkg/otel.mjs");
    const exporter = new otel.InMemorySpanExporter();
    const provider = new otel.BasicTracerProvider({ spanProcessors: [new otel.SimpleSpanProcessor(exporter)] });
    const Memory = withTracing(window.memwasm.Memory, { api: otel.api, tracer: provider.getTracer("page") });
    const memory = new Memory(config);
    await memory.add("I drink green tea every morning", { userId: "p" });
    const found = await memory.search("green tea", { userId: "p" });
    await provider.forceFlush();
    const spans = exporter.getFinishedSpans().map((span) => ({
      id: span.spanContext().spanId,
      parent: span.parentSpanContext?.spanId ?? span.parentSpanId,
      attributes: span.attributes,
    }));
    return { found: found.results.length, spans };
  }, config);
  await browser.kill();
  assert.equal(result.found, 1);
  const op = (name) => result.spans.find((s) => s.attributes["gen_ai.operation.name"] === name);
  const [add, search] = [op("upsert_memory"), op("search_memory")];
  assert.ok(add && search, JSON.stringify(result.spans.map((s) => s.attributes["gen_ai.operation.name"])));
  const under = (parent) => result.spans.filter((s) => s.parent === parent.id).map((s) => s.attributes["gen_ai.operation.name"]);
  assert.ok(under(add).includes("chat") && under(add).includes("embeddings"), JSON.stringify(under(add)));
  assert.ok(under(search).includes("embeddings"), JSON.stringify(under(search)));
});
