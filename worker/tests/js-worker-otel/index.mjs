// A plain JS Worker that traces its memory with memwasm/otel and OpenTelemetry's SDK, bundled by wrangler:
// GET /trace adds one memory and searches it, and answers with the finished spans (docs/otel.md).
import * as api from "@opentelemetry/api";
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base";
import { Memory as BaseMemory } from "memwasm";
import { withTracing } from "memwasm/otel";

export default {
  async fetch(request, env) {
    const exporter = new InMemorySpanExporter();
    const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
    // The bundle holds @opentelemetry/api; memwasm/otel gets it through `api`.
    const Memory = withTracing(BaseMemory, { api, tracer: provider.getTracer("js-worker") });
    const memory = new Memory({
      llm: { provider: "openai", config: { baseUrl: env.OPENAI_BASE_URL, apiKey: env.OPENAI_API_KEY } },
      embedder: { provider: "openai", config: { baseUrl: env.OPENAI_BASE_URL, apiKey: env.OPENAI_API_KEY, dimensions: 64 } },
      retry: { maxRetries: 0 },
    });
    await memory.add("I drink green tea every morning", { userId: "w" });
    const found = await memory.search("green tea", { userId: "w" });
    await provider.forceFlush();
    const spans = exporter.getFinishedSpans().map((span) => ({
      name: span.name,
      id: span.spanContext().spanId,
      parent: span.parentSpanContext?.spanId ?? span.parentSpanId,
      attributes: span.attributes,
      status: span.status.code,
    }));
    return Response.json({ found: found.results.length, spans });
  },
};
