// memwasm/langgraph's item helpers: LangGraph's namespace rules, field paths and filters, and a stored
// memory read back as LangGraph's Item.
import { MemoryError } from "./dist/errors.js";

export const fail = (message, code = "INVALID_INPUT") => new MemoryError(`memwasm/langgraph: ${message}`, code);
export const isObject = (value) => typeof value === "object" && value !== null && !Array.isArray(value);
const CHECK = ["$eq", "$ne", "$gt", "$gte", "$lt", "$lte", "$in", "$nin"];

/** LangGraph's namespace rules: labels are non-empty strings without ".", ":" or NUL; "langgraph" is a
 * reserved root for `put` (batch() may write it, as InMemoryStore lets it). */
export function checkNamespace(namespace, { allowEmpty = false, allowReservedRoot = true } = {}) {
  if (!Array.isArray(namespace)) throw fail(`a namespace is an array of strings, got ${typeof namespace}`);
  if (namespace.length === 0 && !allowEmpty) throw fail("the namespace is empty");
  for (const label of namespace) {
    if (typeof label !== "string" || label === "" || /[.:\0]/.test(label)) {
      throw fail(`namespace label ${JSON.stringify(String(label))}: labels are non-empty strings without ".", ":" or NUL`);
    }
  }
  if (!allowReservedRoot && namespace[0] === "langgraph") throw fail('a namespace cannot start with "langgraph"');
}

export const count = (value, name, fallback) => {
  if (value === undefined || value === null) return fallback;
  if (Number.isInteger(value) && value >= 0) return value;
  throw fail(`${name} must be a whole number >= 0, got ${JSON.stringify(value)}`);
};

/** The texts at a LangGraph field path ("$", "a.b", "list[*].text", "list[0]", "list[-1]"). */
export function textsAt(value, path) {
  if (path === "$") return [JSON.stringify(value, null, 2)];
  let current = [value];
  for (const token of path.match(/[^.[\]]+|\[[^\]]*\]/g) ?? []) {
    current = current.flatMap((node) => {
      if (!token.startsWith("[")) return isObject(node) && token in node ? [node[token]] : [];
      if (!Array.isArray(node)) return [];
      const index = token.slice(1, -1);
      if (index === "*") return node;
      const i = Number.parseInt(index, 10);
      const at = i < 0 ? node.length + i : i;
      return Number.isNaN(i) || at < 0 || at >= node.length ? [] : [node[at]];
    });
  }
  return current.flatMap((node) => {
    if (["string", "number", "boolean"].includes(typeof node)) return [String(node)];
    return typeof node === "object" && node !== null ? [JSON.stringify(node, null, 2)] : [];
  });
}

/** InMemoryStore's filter: each top-level field equals the given value or passes its `$` operators. */
export function passes(value, filter) {
  return Object.entries(filter ?? {}).every(([field, wanted]) => {
    const have = value[field];
    if (!isObject(wanted) || !Object.keys(wanted).every((op) => CHECK.includes(op))) return have === wanted;
    return Object.entries(wanted).every(([op, to]) => ({
      $eq: () => have === to, $ne: () => have !== to,
      $gt: () => Number(have) > Number(to), $gte: () => Number(have) >= Number(to),
      $lt: () => Number(have) < Number(to), $lte: () => Number(have) <= Number(to),
      $in: () => Array.isArray(to) && to.includes(have), $nin: () => !Array.isArray(to) || !to.includes(have),
    })[op]());
  });
}

/** A stored memory as LangGraph's `Item`, or null when it is not one of the store's. */
export function toItem(memory) {
  const meta = memory?.metadata?.langgraph;
  if (!isObject(meta) || typeof meta.value !== "string") return null;
  const item = { value: JSON.parse(meta.value), key: meta.key, namespace: meta.namespace };
  return { ...item, createdAt: new Date(memory.createdAt), updatedAt: new Date(memory.updatedAt) };
}

export const under = (prefix) => ({ field: "langgraph.prefixes", operator: "contains", value: prefix.join(".") });

/** The memory key of an item: the labels joined by ".", then ":" and the key (the memory's key rules: at most
 * 512 characters, no control characters or line separators). */
export function memoryKey(namespace, key, i) {
  if (typeof key !== "string") throw fail(`operation ${i}: key must be a string`);
  const joined = `${namespace.join(".")}:${key}`;
  if ([...joined].length > 512) throw fail(`operation ${i}: the namespace and key are over 512 characters`);
  if (/[\p{Cc}\u2028\u2029]/u.test(key)) throw fail(`operation ${i}: the key has a control character or line separator`);
  return joined;
}
