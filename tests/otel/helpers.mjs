// Shared setup of the memwasm/otel tests: the real OpenTelemetry SDK (a BasicTracerProvider exporting to an
// InMemorySpanExporter, with the AsyncLocalStorage context manager) registered once for the process, and a
// memory whose LLM and embedder are the scripted server.
import { context, trace } from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base";
export { scriptedServer } from "../support/server-per-file.mjs";

export const T = { timeout: 30_000 };

/** Start of memwasm's fact-extraction and update-decision system prompts. */
const EXTRACT = "You are an expert at extracting structured, atomic facts";
const DECIDE = "You are a memory management system";

/** Registers the SDK globally (the app's usual setup); returns the exporter holding the finished spans. */
export function registerSdk() {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  trace.setGlobalTracerProvider(provider);
  return exporter;
}

/** The standard config pointed at `server`; `over` adds or replaces top-level keys. */
export function testConfig(server, over = {}) {
  return {
    llm: { provider: "openai", config: { baseUrl: server.baseUrl, apiKey: "test-key", model: "test-llm" } },
    embedder: { provider: "openai", config: { baseUrl: server.baseUrl, apiKey: "test-key", model: "test-embed", dimensions: 64 } },
    retry: { baseDelayMs: 5, maxDelayMs: 50 },
    ...over,
  };
}

/** Rules making add() of a text containing `match` store `facts` (extraction, then ADD). */
export function addRules(match, facts) {
  return [
    { kind: "chat", match: [EXTRACT, match], reply: { facts }, times: 1 },
    { kind: "chat", match: [DECIDE, ...facts], reply: { memory: facts.map((text) => ({ text, event: "ADD" })) }, times: 1 },
  ];
}

/** The finished span named `name` (exactly one). */
export function only(spans, name) {
  const found = spans.filter((s) => s.name === name);
  if (found.length !== 1) throw new Error(`${found.length} spans named ${name}: ${spans.map((s) => s.name).join(", ")}`);
  return found[0];
}

/** The id of a finished span's parent ('' for a root span), whichever SDK field holds it. */
export const parentId = (span) => span.parentSpanContext?.spanId ?? span.parentSpanId ?? "";

/** Every attribute value of `spans`, as one string (to check that no memory text is in any). */
export const allAttributes = (spans) => JSON.stringify(spans.map((s) => s.attributes));
