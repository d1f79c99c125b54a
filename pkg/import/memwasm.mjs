// This library's own export: `memory.exportMemories(scope)`'s JSON lines, a header
//   {"kind":"memwasm-export","version":2,"memories":N,"history":M}
// then one line per memory ({"kind":"memory", id, memory, metadata, userId, …, embedding}) and per history
// record ({"kind":"history", …}), sources included. It goes back through `importMemories`, which writes it
// all or nothing and keeps ids, so importing it again replaces the same memories; no model call (memories
// without a vector are embedded).
import { formatError } from "./source.mjs";

/** Whether `text` starts with this library's export header. */
export function isMemwasmExport(text) {
  if (typeof text !== "string") return false;
  const first = text.slice(0, Math.max(0, text.indexOf("\n")) || text.length).trim();
  try {
    return JSON.parse(first)?.kind === "memwasm-export";
  } catch {
    return false;
  }
}

/** The export's counts, from its lines (`IMPORT_FORMAT` when it is not one). */
export function countMemwasm(text) {
  if (!isMemwasmExport(text)) throw formatError('a memwasm export starts with the line {"kind":"memwasm-export",…} (exportMemories())');
  let memories = 0;
  let history = 0;
  for (const line of text.split("\n")) {
    if (line.includes('"kind":"memory"')) memories++;
    else if (line.includes('"kind":"history"')) history++;
  }
  return { memories, history };
}
