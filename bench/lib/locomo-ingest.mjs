// LOCOMO ingestion for the retrieval benchmark: every dialogue turn of a conversation stored as one memory,
// `"<speaker>: <text>"` (plus `" [shares <blip_caption>]"` when the turn shares an image), with metadata
// `{role, dia_id, date, speaker, session}` (`date`: the session's `session_N_date_time`; `role: "user"`, as
// `add(…, {infer: false})` gives a message, makes it a conversation turn, read with the turn before it) and
// `createdAt` a millisecond apart in the order said (turns are ordered by it). The fastest user-facing
// path is one `importMemories` of memory lines without vectors: the memory embeds them itself, in requests
// of 64 texts, shortest first (`add(…, {infer: false})` takes one metadata per call, so it would mean one
// call per turn). The memories are new (random ids) and have no history records. With the on-device embedder,
// `config: {threads: 2}` embeds on two cores (Node): the 2,760 turns of the 5 conversations went in at 30
// turns/s on one thread, and at 56-58 on two while the shared 2-core machine was otherwise light (29-40
// while other work used a core), 2026-11-26.
import { createHash, randomUUID } from "node:crypto";

/** The turns of `conversation` (a LOCOMO file's object, or its `conversation` field) in order. */
export function turnsOf(conversation) {
  const c = conversation.conversation ?? conversation;
  const turns = [];
  for (let session = 1; Array.isArray(c[`session_${session}`]); session++) {
    const date = c[`session_${session}_date_time`];
    for (const turn of c[`session_${session}`]) {
      const shares = turn.blip_caption ? ` [shares ${turn.blip_caption}]` : "";
      const metadata = { role: "user", dia_id: turn.dia_id, date, speaker: turn.speaker, session };
      turns.push({ text: `${turn.speaker}: ${turn.text}${shares}`, metadata });
    }
  }
  return turns;
}

/** Stores every turn of `conversation` in `memory` for `userId`; `{turns, ms}` (plus `warnings` when some
 * turns could not be embedded: they are stored keyword-only and embedded later). */
export async function ingest(memory, conversation, { userId }) {
  const turns = turnsOf(conversation);
  const start = performance.now();
  const first = Date.now();
  const lines = [JSON.stringify({ kind: "memwasm-export", version: 2, memories: turns.length, history: 0 })];
  for (const [nth, { text, metadata }] of turns.entries()) {
    const hash = createHash("md5").update(text).digest("hex");
    const at = new Date(first + nth).toISOString();
    lines.push(JSON.stringify({ kind: "memory", id: randomUUID(), memory: text, hash, metadata, createdAt: at, updatedAt: at, userId }));
  }
  const result = await memory.importMemories(lines.join("\n") + "\n");
  const ms = performance.now() - start;
  return result.warnings ? { turns: turns.length, ms, warnings: result.warnings } : { turns: turns.length, ms };
}
