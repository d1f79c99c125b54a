// `format: "auto"`: which export a source is, from its shape. This library's export by its header line;
// then the parsed JSON: conversations with a `mapping` (ChatGPT), with `chat_messages` (Claude), memories
// with a `memory` text, as an array or get_all's `{ results }` (mem0).
import { formatError, isObject } from "./source.mjs";
import { isMemwasmExport } from "./memwasm.mjs";

export const FORMATS = ["chatgpt", "claude", "mem0", "memwasm"];

/** The format of a read source (`{ text, value, parseError }`, see source.mjs); `IMPORT_FORMAT` when none fits. */
export function detect({ text, value, parseError }) {
  if (isMemwasmExport(text)) return "memwasm";
  if (value === undefined) throw formatError(`the file is not JSON (${parseError})`);
  if (Array.isArray(value) && value.length === 0) return "chatgpt"; // nothing to import, whichever it is
  const results = isObject(value) && Array.isArray(value.results);
  const first = Array.isArray(value) ? value.find(isObject) : results ? value.results.find(isObject) : value;
  if (isObject(first) && "mapping" in first) return "chatgpt";
  if (isObject(first) && "chat_messages" in first) return "claude";
  if (results || (isObject(first) && typeof first.memory === "string")) return "mem0";
  throw formatError("not an export this importer knows (ChatGPT's or Claude's conversations.json, a mem0 export, " +
    "exportMemories()' text); name it with `format` to see what does not fit");
}
