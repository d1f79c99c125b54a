// memwasm/langgraph: a LangGraph store (`BaseStore` of @langchain/langgraph-checkpoint, an optional peer
// dependency) over a memwasm `Memory`. Every item is one key/value memory of one scope: its key is the
// namespace labels joined by "." then ":" and the item's key, its text what the item's indexed fields say,
// and `metadata.langgraph` holds the namespace, the key and the value as JSON text (read back exactly).
import { BaseStore } from "@langchain/langgraph-checkpoint";
import { checkNamespace, count, fail, isObject, memoryKey, passes, textsAt, toItem, under } from "./langgraph-items.mjs";

const PAGE = 1000;

export class MemwasmStore extends BaseStore {
  #memory;
  #scope;
  #fields;
  #ttl;
  #method;

  /** `memory`: a memwasm `Memory`. Options: `scope` (default `{agentId: "langgraph"}`), `index` (`{fields}`,
   * default `["$"]`, the whole value; `false`: no item is ranked by a query), `ttl.defaultTtl` (minutes),
   * `method` (the memory's search method for queries). */
  constructor(memory, options = {}) {
    super();
    if (!memory || typeof memory.store !== "function" || typeof memory.getAll !== "function") {
      throw fail("new MemwasmStore(memory): memory must be a memwasm Memory", "INVALID_CONFIG");
    }
    if (!isObject(options)) throw fail("the options must be an object", "INVALID_CONFIG");
    const known = ["scope", "index", "ttl", "method"];
    const unknown = Object.keys(options).find((name) => !known.includes(name));
    if (unknown) throw fail(`unknown option ${JSON.stringify(unknown)} (known: ${known.join(", ")})`, "INVALID_CONFIG");
    const { scope = { agentId: "langgraph" }, index = {}, ttl = {}, method } = options;
    const ids = isObject(scope) ? Object.entries(scope) : [];
    if (!ids.length || !ids.every(([name, id]) => ["userId", "agentId", "runId"].includes(name) && typeof id === "string" && id)) {
      throw fail("scope must be {userId?, agentId?, runId?} with at least one id", "INVALID_CONFIG");
    }
    if (method !== undefined && !["vector", "keyword", "hybrid", "rrf", "agentic"].includes(method)) {
      throw fail(`method ${JSON.stringify(method)}: one of vector, keyword, hybrid, rrf, agentic`, "INVALID_CONFIG");
    }
    const fields = index === false ? false : isObject(index) ? index.fields ?? ["$"] : null;
    if (fields !== false && !(Array.isArray(fields) && fields.every((f) => typeof f === "string" && f))) {
      throw fail("index must be false or {fields: string[]}", "INVALID_CONFIG");
    }
    const defaultTtl = isObject(ttl) ? ttl.defaultTtl ?? null : undefined;
    if (defaultTtl !== null && !(Number.isFinite(defaultTtl) && defaultTtl > 0)) {
      throw fail("ttl must be {defaultTtl?: minutes > 0}", "INVALID_CONFIG");
    }
    [this.#memory, this.#scope, this.#fields, this.#ttl, this.#method] = [memory, { ...scope }, fields, defaultTtl, method];
  }

  async put(namespace, key, value, index, options = {}) {
    checkNamespace(namespace, { allowReservedRoot: false });
    if (!isObject(options)) throw fail("put's options must be {ttl?}");
    await this.batch([{ namespace, key, value, index, ...("ttl" in options ? { ttl: options.ttl } : {}) }]);
  }

  async get(namespace, key) {
    return (await this.batch([{ namespace, key }]))[0];
  }

  async delete(namespace, key) {
    await this.batch([{ namespace, key, value: null }]);
  }

  async search(namespacePrefix, options = {}) {
    if (!isObject(options)) throw fail("search's options must be {query?, filter?, limit?, offset?}");
    const { filter, limit = 10, offset = 0, query } = options;
    return (await this.batch([{ namespacePrefix, filter, limit, offset, query }]))[0];
  }

  async listNamespaces(options = {}) {
    if (!isObject(options)) throw fail("listNamespaces' options must be {prefix?, suffix?, maxDepth?, limit?, offset?}");
    const { prefix, suffix, maxDepth, limit = 100, offset = 0 } = options;
    const matchConditions = [["prefix", prefix], ["suffix", suffix]].filter(([, path]) => path !== undefined)
      .map(([matchType, path]) => ({ matchType, path }));
    return (await this.batch([{ matchConditions, maxDepth, limit, offset }]))[0];
  }

  /** Runs the operations as InMemoryStore does: reads first, then the writes (the last put of a key wins). */
  async batch(operations) {
    if (!Array.isArray(operations)) throw fail("batch takes an array of operations");
    const reads = [];
    const puts = new Map();
    operations.forEach((op, i) => {
      if (!isObject(op)) throw fail(`operation ${i} is not an object`);
      if ("namespacePrefix" in op) return reads.push([i, () => this.#search(op)]);
      if ("matchConditions" in op || "maxDepth" in op) return reads.push([i, () => this.#list(op)]);
      checkNamespace(op.namespace);
      const key = memoryKey(op.namespace, op.key, i);
      if (!("value" in op)) return reads.push([i, () => this.#get(key)]);
      puts.set(key, this.#checkPut(op, i));
    });
    const results = operations.map(() => undefined);
    for (const [i, read] of reads) results[i] = await read();
    for (const [memoryKey, op] of puts) await this.#write(memoryKey, op);
    return results;
  }

  #checkPut(op, i) {
    if (op.value !== null && !isObject(op.value)) throw fail(`operation ${i}: value must be an object, or null to delete`);
    if (!(op.index === undefined || op.index === null || op.index === false || (Array.isArray(op.index) && op.index.every((f) => typeof f === "string" && f)))) {
      throw fail(`operation ${i}: index must be false or an array of field paths`);
    }
    const ttl = op.ttl === undefined ? this.#ttl : op.ttl;
    if (ttl !== null && !(Number.isFinite(ttl) && ttl > 0)) throw fail(`operation ${i}: ttl must be minutes > 0, or null`);
    let json;
    try {
      json = op.value === null ? null : JSON.stringify(op.value);
    } catch (error) {
      throw fail(`operation ${i}: the value is not JSON (${error.message})`);
    }
    return { ...op, ttl, json };
  }

  async #write(memoryKey, { namespace, key, value, index, ttl, json }) {
    if (value === null) {
      await this.#memory.deleteByKey(memoryKey, this.#scope).catch((error) => {
        if (!["NOT_FOUND", "EXPIRED"].includes(error?.code)) throw error;
      });
      return;
    }
    const fields = index === false || this.#fields === false ? [] : index ?? this.#fields;
    const texts = fields.flatMap((path) => textsAt(value, path)).filter((text) => text.trim() !== "");
    const prefixes = namespace.map((_, n) => namespace.slice(0, n + 1).join("."));
    const langgraph = { namespace: [...namespace], key, value: json, prefixes: ["", ...prefixes], indexed: texts.length > 0 };
    await this.#memory.store(memoryKey, texts.length ? texts.join("\n") : json, {
      ...this.#scope,
      metadata: { langgraph },
      ...(ttl === null ? {} : { ttl: ttl * 60_000 }),
    });
  }

  async #get(key) {
    try {
      return toItem(await this.#memory.getByKey(key, this.#scope));
    } catch (error) {
      if (["NOT_FOUND", "EXPIRED"].includes(error?.code)) return null;
      throw error;
    }
  }

  /** Every item under `prefix`, oldest first, as `[memory id, Item]`. */
  async #all(prefix) {
    const found = [];
    for (let offset = 0; ; offset += PAGE) {
      const page = await this.#memory.getAll({ ...this.#scope, filters: under(prefix), limit: PAGE, offset });
      for (const memory of page.results) found.push([memory.id, toItem(memory)]);
      if (!page.hasMore) return found.filter(([, item]) => item);
    }
  }

  async #search({ namespacePrefix, filter, limit, offset, query }) {
    checkNamespace(namespacePrefix, { allowEmpty: true });
    if (filter !== undefined && filter !== null && !isObject(filter)) throw fail("a search filter must be an object");
    if (query !== undefined && query !== null && typeof query !== "string") throw fail("a search query must be a string");
    [limit, offset] = [count(limit, "limit", 10), count(offset, "offset", 0)];
    const candidates = (await this.#all(namespacePrefix)).filter(([, item]) => passes(item.value, filter));
    const scores = new Map();
    if (query && candidates.length > 0 && this.#fields !== false) {
      const filters = { AND: [under(namespacePrefix), { field: "langgraph.indexed", operator: "eq", value: true }] };
      const ranked = await this.#memory.search(query, { ...this.#scope, filters, limit: candidates.length, ...(this.#method ? { method: this.#method } : {}) });
      for (const memory of ranked.results) scores.set(memory.id, memory.score);
    }
    const byId = new Map(candidates);
    const ordered = [...[...scores.keys()].filter((id) => byId.has(id)), ...candidates.map(([id]) => id).filter((id) => !scores.has(id))];
    return ordered.slice(offset, offset + limit).map((id) => ({ ...byId.get(id), score: scores.get(id) }));
  }

  async #list({ matchConditions = [], maxDepth, limit, offset }) {
    if (!Array.isArray(matchConditions ?? [])) throw fail("matchConditions must be an array");
    for (const condition of matchConditions ?? []) {
      if (!isObject(condition) || !["prefix", "suffix"].includes(condition.matchType) || !Array.isArray(condition.path)) {
        throw fail('a match condition is {matchType: "prefix" | "suffix", path: string[]}');
      }
      checkNamespace(condition.path.map((label) => (label === "*" ? "x" : label)), { allowEmpty: true });
    }
    if (maxDepth !== undefined && maxDepth !== null && !(Number.isInteger(maxDepth) && maxDepth > 0)) throw fail("maxDepth must be a whole number > 0");
    [limit, offset] = [count(limit, "limit", 100), count(offset, "offset", 0)];
    const matches = (namespace, { matchType, path }) => path.length <= namespace.length && path.every((label, i) =>
      label === "*" || label === namespace[matchType === "prefix" ? i : namespace.length - path.length + i]);
    const found = new Set();
    for (const [, { namespace }] of await this.#all([])) {
      if ((matchConditions ?? []).every((condition) => matches(namespace, condition))) found.add(namespace.slice(0, maxDepth ?? undefined).join("."));
    }
    const sortKey = (joined) => joined.replaceAll(".", ":"); // InMemoryStore's order
    return [...found].sort((a, b) => sortKey(a).localeCompare(sortKey(b))).slice(offset, offset + limit).map((joined) => joined.split("."));
  }
}
