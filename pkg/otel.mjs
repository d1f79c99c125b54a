// memwasm/otel: OpenTelemetry spans for a Memory class, through @opentelemetry/api when the app has it
// installed (an optional peer dependency; without it `withTracing` returns the class unchanged and nothing
// else is loaded). Memory operations get `gen_ai.memory.*` spans; each model call the config's `observe`
// callback hears of gets a `chat` or `embeddings` span under the operation that made it. Span names and
// attributes follow the OpenTelemetry GenAI semantic conventions (docs/otel.md names the revision).
import { MemoryError } from "./dist/errors.js";

let installed;
try {
  installed = await import("@opentelemetry/api");
} catch {} // not installed: withTracing returns the class unchanged

/** True when @opentelemetry/api could be loaded. */
export const tracingAvailable = installed !== undefined;

const INTERNAL = 0;
const CLIENT = 2;
const ERROR = 2;

/** The wrapped methods: their `gen_ai.operation.name`, which argument holds the scope (when one does), which
 * holds a record id, and how many records the result holds. */
const OPERATIONS = {
  add: { name: "upsert_memory", scope: 1, count: (r) => r?.results?.length },
  search: { name: "search_memory", scope: 1, query: true, count: (r) => r?.results?.length },
  recall: { name: "search_memory", scope: 1, query: true, count: (r) => r?.memories?.length },
  getAll: { name: "search_memory", scope: 0, count: (r) => r?.results?.length },
  get: { name: "search_memory", record: 0, count: (r) => (r ? 1 : 0) },
  update: { name: "update_memory", record: 0, count: () => 1 },
  delete: { name: "delete_memory", record: 0, count: () => 1 },
  deleteAll: { name: "delete_memory", scope: 0 },
};

/** memwasm's provider names as `gen_ai.provider.name` spells them; others are passed as they are. */
const PROVIDERS = { azure_openai: "azure.ai.openai", gemini: "gcp.gemini", "workers-ai": "cloudflare.workers_ai" };

const SCOPE_IDS = ["hashed", "plain", "none"];

/** `Memory` (memwasm's or memwasm/mem0's class) with tracing: a subclass whose constructor, `fromConfig` and
 * `open` add an `observe` callback to the config (calling the config's own one too) and whose `add`,
 * `search`, `recall`, `getAll`, `get`, `update`, `delete` and `deleteAll` run in a span. */
export function withTracing(Memory, options = {}) {
  if (typeof Memory !== "function") throw new MemoryError("withTracing: Memory must be the Memory class", "INVALID_INPUT");
  if (typeof options !== "object" || options === null) throw invalid("options must be an object");
  const { api = installed, tracer: given, scopeIds = "hashed", captureContent = false } = options;
  if (!SCOPE_IDS.includes(scopeIds)) throw invalid(`scopeIds: one of ${SCOPE_IDS.map((s) => `"${s}"`).join(", ")}`);
  if (typeof captureContent !== "boolean") throw invalid("captureContent: true or false");
  if (api == null) return Memory;
  if (typeof api.trace?.setSpan !== "function" || typeof api.context?.with !== "function") throw invalid("api: the @opentelemetry/api module");
  if (given !== undefined && typeof given?.startSpan !== "function") throw invalid("tracer: an OpenTelemetry Tracer");
  const tracer = given ?? api.trace.getTracer("memwasm");
  const settings = { api, tracer, scopeIds, captureContent };
  // Per memory: its traced operations running, and the spans of its model calls by event id.
  const states = new WeakMap();
  const fresh = () => ({ ops: new Set(), calls: new Map() });
  const adopt = (memory, state) => (states.set(memory, state), Object.setPrototypeOf(memory, Traced.prototype));
  class Traced extends Memory {
    constructor(config, state = fresh()) {
      super(observed(config, state, settings));
      states.set(this, state);
    }
    static fromConfig(config, state = fresh()) {
      return adopt(super.fromConfig(observed(config, state, settings)), state);
    }
    static async open(config, state = fresh()) {
      return adopt(await super.open(observed(config, state, settings)), state);
    }
  }
  for (const [method, operation] of Object.entries(OPERATIONS)) {
    const original = Memory.prototype[method];
    if (typeof original !== "function") continue;
    const value = function (...args) {
      const state = states.get(this);
      return state ? traced(this, original, args, { method, ...operation }, state, settings) : original.apply(this, args);
    };
    Object.defineProperty(Traced.prototype, method, { configurable: true, writable: true, value });
  }
  return Traced;
}

function invalid(why) {
  return new MemoryError(`invalid config: withTracing options.${why}`, "INVALID_CONFIG");
}

/** `config` with an `observe` callback that makes the model-call spans, then calls the config's own. A
 * config whose `observe` is not a function is left for the Memory to reject. */
function observed(config, state, settings) {
  const own = config?.observe;
  if (own !== undefined && typeof own !== "function") return config;
  const observe = (event) => {
    try {
      modelCall(event, state, settings);
    } catch {
      // Tracing never changes what the memory does.
    }
    own?.(event);
  };
  return { ...config, observe };
}

/** Starts or ends the span of one model call. */
function modelCall(event, state, { api, tracer }) {
  if (event.phase === "start") {
    const { parent, links } = parentOf(state, api);
    const attributes = {
      "gen_ai.operation.name": event.kind,
      "gen_ai.provider.name": PROVIDERS[event.provider] ?? event.provider,
    };
    if (event.model) attributes["gen_ai.request.model"] = event.model;
    if (event.inputs !== undefined) attributes["memwasm.embeddings.inputs"] = event.inputs;
    const kind = event.provider === "custom" ? INTERNAL : CLIENT;
    const name = event.model ? `${event.kind} ${event.model}` : event.kind;
    state.calls.set(event.id, tracer.startSpan(name, { kind, attributes, links }, parent));
    return;
  }
  const span = state.calls.get(event.id);
  if (!span) return;
  state.calls.delete(event.id);
  if (event.error) {
    span.setAttribute("error.type", event.error.code);
    span.setStatus({ code: ERROR, message: event.error.message });
  }
  span.end();
}

/** Where a model call's span goes: under the one operation of this memory running, else (several run at
 * once and their calls cannot be told apart) under the first one's parent, linked to each of them; with none
 * running (a background call, an untraced method), under the active context. */
function parentOf(state, api) {
  const running = [...state.ops];
  if (running.length === 1) return { parent: running[0].context, links: [] };
  if (running.length === 0) return { parent: api.context.active(), links: [] };
  return { parent: running[0].parent, links: running.map((op) => ({ context: op.span.spanContext() })) };
}

/** Runs `original` in the span of `operation`. */
function traced(memory, original, args, operation, state, { api, tracer, scopeIds, captureContent }) {
  const attributes = { "gen_ai.operation.name": operation.name, "memwasm.operation": operation.method };
  const recordId = operation.record !== undefined ? args[operation.record] : undefined;
  if (typeof recordId === "string") attributes["gen_ai.memory.record.id"] = recordId;
  if (captureContent && operation.query && typeof args[0] === "string") attributes["gen_ai.memory.query.text"] = args[0];
  const parent = api.context.active();
  const span = tracer.startSpan(operation.name, { kind: INTERNAL, attributes }, parent);
  const op = { span, parent, context: api.trace.setSpan(parent, span) };
  state.ops.add(op);
  const storeId = operation.scope !== undefined ? storeIdOf(args[operation.scope], scopeIds) : undefined;
  const finish = async (result, error) => {
    state.ops.delete(op);
    const id = await storeId?.catch(() => undefined);
    if (id) span.setAttribute("gen_ai.memory.store.id", id);
    if (error === undefined) {
      const count = operation.count?.(result);
      if (Number.isInteger(count)) span.setAttribute("gen_ai.memory.record.count", count);
      if (captureContent) records(span, result);
    } else {
      span.setAttribute("error.type", error?.code ?? error?.name ?? "_OTHER");
      if (error instanceof Error) span.recordException(error);
      span.setStatus({ code: ERROR, message: error?.message ?? String(error) });
    }
    span.end();
  };
  const end = (result, error) => finish(result, error).catch(() => undefined); // never changes the outcome
  let result;
  try {
    result = api.context.with(op.context, () => original.apply(memory, args));
  } catch (error) {
    end(undefined, error);
    throw error;
  }
  if (typeof result?.then !== "function") return (end(result), result);
  return result.then(
    async (value) => (await end(value), value),
    async (error) => {
      await end(undefined, error);
      throw error;
    },
  );
}

/** `gen_ai.memory.records` (opt-in: the memories' text): id, content and score of each record returned. */
function records(span, result) {
  const list = result?.results ?? result?.memories ?? (result?.id ? [result] : undefined);
  if (!Array.isArray(list)) return;
  const out = list.map((r) => ({ id: r.id, content: r.memory, ...(typeof r.score === "number" ? { score: r.score } : {}) }));
  span.setAttribute("gen_ai.memory.records", JSON.stringify(out));
}

/** The scope as `gen_ai.memory.store.id`: `user:…/agent:…/run:…`, hashed (SHA-256, 16 hex digits) unless
 * `plain`; undefined without an id or with `none`. */
async function storeIdOf(scope, scopeIds) {
  if (scopeIds === "none" || typeof scope !== "object" || scope === null) return undefined;
  const parts = [["user", scope.userId ?? scope.user_id], ["agent", scope.agentId ?? scope.agent_id], ["run", scope.runId ?? scope.run_id]];
  const named = parts.filter(([, id]) => typeof id === "string" && id !== "").map(([k, id]) => `${k}:${id}`).join("/");
  if (named === "" || scopeIds === "plain") return named || undefined;
  const subtle = globalThis.crypto?.subtle;
  if (!subtle) return undefined;
  const digest = new Uint8Array(await subtle.digest("SHA-256", new TextEncoder().encode(named)));
  return [...digest.slice(0, 8)].map((b) => b.toString(16).padStart(2, "0")).join("");
}
