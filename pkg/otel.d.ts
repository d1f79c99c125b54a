// Types of memwasm/otel: OpenTelemetry spans for the Memory class (docs/otel.md).

/** The part of an OpenTelemetry `Tracer` (npm `@opentelemetry/api`) this module uses. */
export interface TracerLike {
    startSpan(name: string, options?: object, context?: unknown): unknown;
}

/** `withTracing`'s options. */
export interface TracingOptions {
    /** The tracer the spans are made with. Default: `trace.getTracer("memwasm")` of `@opentelemetry/api`. */
    tracer?: TracerLike;
    /** The `@opentelemetry/api` module (`import * as api from "@opentelemetry/api"`), for a bundle in which
     * this module cannot import it itself. Default: the installed one. */
    api?: object;
    /** How the scope (`userId`, `agentId`, `runId`) shows as `gen_ai.memory.store.id`: `"hashed"` (default;
     * 16 hex digits of the SHA-256 of `user:…/agent:…/run:…`), `"plain"` (that text) or `"none"` (left out). */
    scopeIds?: "hashed" | "plain" | "none";
    /** Opt-in: put the query (`gen_ai.memory.query.text`) and the memories' text (`gen_ai.memory.records`)
     * on the spans. Default `false`: no memory text in any attribute. */
    captureContent?: boolean;
}

/** True when `@opentelemetry/api` could be loaded. */
export declare const tracingAvailable: boolean;

/**
 * `Memory` with tracing: a subclass whose `add`, `search`, `recall`, `getAll`, `get`, `update`, `delete` and
 * `deleteAll` each run in a span, with the model calls they make (through the config's `observe` callback,
 * which is still called) as child spans. Without `@opentelemetry/api` (and no `api` option), `Memory` itself.
 * Throws `INVALID_CONFIG` for bad options.
 */
export declare function withTracing<M extends abstract new (...args: any[]) => any>(Memory: M, options?: TracingOptions): M;
