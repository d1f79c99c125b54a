// `memwasm/mem0`'s Memory: memwasm's Memory with mem0 v3's defaults and words, so mem0 code behaves as on
// mem0 v3. A config without `pipeline` gets the additive one (mem0 v3's add: one LLM call, every new fact
// added) and, without `nearDuplicate`, drops exact duplicates only, as mem0 does; without `unknownKeys`, a key
// memwasm does not take is ignored with a console warning naming it (mem0 ignores the keys it does not read).
// Calls speak mem0's dialect: `add()` results carry `metadata.event`; a missing userId/agentId/runId rejects
// with mem0's message (the code stays `SCOPE_REQUIRED`); an extraction call the LLM could not answer makes `add()` reject with an `LLMError`
// (memwasm's own `add()` resolves with an `EXTRACTION_FAILED` warning instead).
import { LLMError } from "./dist/errors.js";
import { withConfig } from "./with-config.mjs";

/** mem0 v3's message for a call without an entity id, by method. */
const SCOPE_MESSAGES = {
  add: "One of the filters: userId, agentId or runId is required!",
  search: "filters must contain at least one of: user_id, agent_id, run_id. Example: filters: { user_id: 'u1' }",
  getAll: "filters must contain at least one of: user_id, agent_id, run_id. Example: filters: { user_id: 'u1' }",
  deleteAll:
    "At least one filter is required to delete all memories. If you want to delete all memories, use the `reset()` method.",
};

/** The causes of an `EXTRACTION_FAILED` warning that mean the LLM could not be reached. */
const UNREACHABLE = new Set(["LLM_HTTP", "LLM_NETWORK", "LLM_TIMEOUT", "LLM_UNAVAILABLE", "LLM_CALLBACK"]);

/** `config` with mem0 v3's defaults where it names none. */
export function mem0Config(config) {
  const given = config ?? {};
  return {
    ...given,
    pipeline: given.pipeline ?? "additive",
    nearDuplicate: given.nearDuplicate ?? false,
    unknownKeys: given.unknownKeys ?? "warn",
  };
}

/** Runs `call`; a `SCOPE_REQUIRED` rejection gets mem0's message for `method`. */
async function inMem0Words(method, call) {
  try {
    return await call();
  } catch (error) {
    if (error?.code === "SCOPE_REQUIRED") error.message = SCOPE_MESSAGES[method];
    throw error;
  }
}

/** `result` of `add()` as mem0 gives it: rejects when the LLM was unreachable, `metadata.event` set. */
function asMem0Added(result) {
  const failed = result?.warnings?.find((w) => w.code === "EXTRACTION_FAILED" && UNREACHABLE.has(w.cause));
  if (failed) throw new LLMError(`LLM extraction failed: ${failed.message}`, failed.cause, failed.status);
  for (const item of result?.results ?? []) item.metadata = { ...item.metadata, event: item.event };
  return result;
}

/** `Base` (a package entry's Memory) with mem0's defaults and dialect; `instanceof Base` holds. */
export function mem0Memory(Base) {
  class Memory extends withConfig(Base, mem0Config) {
    add(messages, options) {
      return inMem0Words("add", () => super.add(messages, options)).then(asMem0Added);
    }
    search(query, options) {
      return inMem0Words("search", () => super.search(query, options));
    }
    getAll(options) {
      return inMem0Words("getAll", () => super.getAll(options));
    }
    deleteAll(options) {
      return inMem0Words("deleteAll", () => super.deleteAll(options));
    }
  }
  return Memory;
}
