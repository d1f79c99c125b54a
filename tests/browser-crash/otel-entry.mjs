// What otel.test.mjs bundles for the page (esbuild): the OpenTelemetry API and the SDK's in-memory exporter.
export * as api from "@opentelemetry/api";
export { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base";
