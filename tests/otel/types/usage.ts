// pkg/otel.d.ts against @opentelemetry/api's own types (tests/otel/types.test.mjs runs tsc on this file).
import * as api from "@opentelemetry/api";
import { Memory } from "memwasm";
import { Memory as Mem0Memory } from "memwasm/mem0";
import { tracingAvailable, withTracing, type TracingOptions } from "memwasm/otel";

const Traced = withTracing(Memory, { tracer: api.trace.getTracer("app"), scopeIds: "plain", captureContent: true });
const memory: Memory = new Traced({ observe: (event) => console.log(event.kind, event.durationMs) });
export const found: Promise<{ results: { memory: string }[] }> = memory.search("tea", { userId: "alice" });
export const opened: Promise<Memory> = Traced.open();
export const mem0 = new (withTracing(Mem0Memory, { api }))();
export const available: boolean = tracingAvailable;
export const options: TracingOptions = { scopeIds: "none" };

// @ts-expect-error: not a scopeIds value
withTracing(Memory, { scopeIds: "md5" });
// @ts-expect-error: captureContent is a boolean
withTracing(Memory, { captureContent: "yes" });
// @ts-expect-error: the class, not an instance
withTracing(memory);
