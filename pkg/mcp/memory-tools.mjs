// mem0's MCP tools (mem0-mcp's names and arguments) over the public Memory API. Each handler takes the
// checked arguments and the server context {memory, userId, llm, graph}, and returns the JSON result or throws an
// error with a `code` (a MemoryError, or toolError below).

/** An error with a code for the MCP result: NOT_FOUND, NOT_SUPPORTED, INVALID_INPUT, … */
export function toolError(code, message) {
  return Object.assign(new Error(message), { code });
}

const SCOPE_KEYS = { user_id: "userId", agent_id: "agentId", run_id: "runId" };

/** The call's scope: the ids it names, or the server's user when it names none. */
export function scopeOf(args, ctx) {
  const scope = {};
  for (const [snake, camel] of Object.entries(SCOPE_KEYS)) if (args[snake] != null) scope[camel] = args[snake];
  return Object.keys(scope).length ? scope : { userId: ctx.userId };
}

/** mem0 puts user_id / agent_id / run_id in `filters` (top level, or single-key clauses of an AND list):
 * those become the scope, the rest stays a filter. */
function splitFilters(args, ctx) {
  const ids = { ...args };
  let filters = args.filters == null ? undefined : { ...args.filters };
  if (filters) {
    for (const key of Object.keys(SCOPE_KEYS)) {
      if (typeof filters[key] === "string") [ids[key], filters[key]] = [filters[key], undefined];
      delete filters[key];
    }
    if (Array.isArray(filters.AND)) {
      filters.AND = filters.AND.filter((clause) => {
        const keys = clause && typeof clause === "object" ? Object.keys(clause) : [];
        if (keys.length !== 1 || !(keys[0] in SCOPE_KEYS) || typeof clause[keys[0]] !== "string") return true;
        ids[keys[0]] = clause[keys[0]];
        return false;
      });
      if (filters.AND.length === 0) delete filters.AND;
    }
    if (Object.keys(filters).length === 0) filters = undefined;
  }
  return { scope: scopeOf(ids, ctx), filters };
}

const withFilters = (options, filters) => (filters ? { ...options, filters } : options);

export const memoryTools = {
  async add_memory(args, { memory, ...ctx }) {
    const messages = args.messages?.length ? args.messages : args.text;
    if (!messages.trim?.() && !args.messages?.length) throw toolError("INVALID_INPUT", "`text` must not be empty");
    const metadata = args.app_id != null ? { ...args.metadata, app_id: args.app_id } : args.metadata;
    // Without an LLM (--no-llm, the on-device embedder) the text is stored as it is.
    return memory.add(messages, { ...scopeOf(args, ctx), ...(metadata ? { metadata } : {}), ...(ctx.llm ? {} : { infer: false }) });
  },

  async search_memories(args, { memory, ...ctx }) {
    const { scope, filters } = splitFilters(args, ctx);
    const options = withFilters({ ...scope, limit: args.limit ?? 10 }, filters);
    if (args.enable_graph != null && ctx.graph) options.graph = args.enable_graph;
    return memory.search(args.query, options);
  },

  async get_memories(args, { memory, ...ctx }) {
    const { scope, filters } = splitFilters(args, ctx);
    const size = args.page_size ?? 10;
    return memory.getAll(withFilters({ ...scope, limit: size, offset: ((args.page ?? 1) - 1) * size }, filters));
  },

  async get_memory({ memory_id }, { memory }) {
    const found = await memory.get(memory_id);
    if (!found) throw toolError("NOT_FOUND", `No memory with id ${JSON.stringify(memory_id)}`);
    return found;
  },

  async get_memory_sources({ memory_id }, { memory }) {
    return { results: await memory.sources(memory_id) };
  },

  update_memory: ({ memory_id, text }, { memory }) => memory.update(memory_id, text),
  delete_memory: ({ memory_id }, { memory }) => memory.delete(memory_id),

  async delete_all_memories(args, { memory, ...ctx }) {
    const filters = args.app_id != null ? { app_id: args.app_id } : undefined;
    return memory.deleteAll(withFilters(scopeOf(args, ctx), filters));
  },

  async list_entities(_args, { memory }) {
    const { byScope } = await memory.stats();
    const results = byScope.map(({ userId, agentId, runId, count }) => ({
      ...(userId != null ? { user_id: userId } : {}),
      ...(agentId != null ? { agent_id: agentId } : {}),
      ...(runId != null ? { run_id: runId } : {}),
      total_memories: count,
    }));
    return { results };
  },
};
