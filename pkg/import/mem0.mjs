// mem0's memories, as its platform hands them out: `client.get_all(…)` (the route its export guide uses to
// export and migrate a user's memories) answers `{ count, next, previous, results: [memory] }` (v2), or the
// array of memories (v1); a file saved from either imports as it is. A memory is
//   { id, memory (the text), user_id?, agent_id?, app_id?, run_id?, metadata?, categories?, created_at?, updated_at? }
// These are memories already, not conversations: each is added as it is (`infer: false`, no model call), its
// mem0 id as the message id, so `sources()` names it, and `created_at` as the message's time. The scope is
// the import's (`userId`, `agentId`, `runId`) when it names one, else the memory's own.
import { conversationError, formatError, isObject } from "./source.mjs";

/** The memories of a mem0 export, checked; throws `IMPORT_FORMAT` naming the memory. */
export function parseMem0(value, scope) {
  const list = Array.isArray(value) ? value : isObject(value) && Array.isArray(value.results) ? value.results : undefined;
  if (!list) throw formatError("a mem0 export is an array of memories, or get_all's `{ results: [...] }`");
  const named = Object.keys(scope).length > 0;
  return list.map((m, index) => {
    const fail = (why) => {
      throw conversationError(index, isObject(m) ? m.id : undefined, why, "memory");
    };
    if (!isObject(m)) fail("not an object");
    if (typeof m.id !== "string" || m.id === "") fail("no `id`");
    if (typeof m.memory !== "string") fail("`memory` is not a string");
    if (m.metadata != null && !isObject(m.metadata)) fail("`metadata` is not an object");
    if (m.categories != null && !Array.isArray(m.categories)) fail("`categories` is not an array");
    let createdAt;
    if (m.created_at != null) {
      const ms = typeof m.created_at === "string" ? Date.parse(m.created_at) : NaN;
      if (Number.isNaN(ms)) fail("`created_at` is not an ISO 8601 time");
      createdAt = new Date(ms).toISOString();
    }
    const own = {};
    for (const [from, to] of [["user_id", "userId"], ["agent_id", "agentId"], ["run_id", "runId"]]) {
      if (m[from] != null && m[from] !== "") {
        if (typeof m[from] !== "string") fail(`\`${from}\` is not a string`);
        own[to] = m[from];
      }
    }
    if (!named && Object.keys(own).length === 0) fail("no `user_id`, `agent_id` or `run_id`, and the import names none (`userId`)");
    const metadata = { ...(m.metadata ?? {}), ...(m.categories?.length && !m.metadata?.categories ? { categories: m.categories } : {}) };
    return { id: m.id, text: m.memory, createdAt, scope: named ? scope : own, metadata };
  });
}

/** Adds the checked memories one by one (empty texts are skipped); `step(added)` after each. */
export async function importMem0(memory, records, { step, stopIfAborted }) {
  for (const record of records) {
    stopIfAborted();
    if (record.text.trim() === "") {
      await step(null, record, "empty memory");
      continue;
    }
    const message = { role: "user", content: record.text, id: record.id, ...(record.createdAt ? { createdAt: record.createdAt } : {}) };
    const options = { ...record.scope, infer: false, idempotencyKey: `import:mem0:${record.id}` };
    if (Object.keys(record.metadata).length > 0) options.metadata = record.metadata;
    await step(await memory.add([message], options), record);
  }
}
