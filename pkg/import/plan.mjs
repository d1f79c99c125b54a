// The plan of a conversations import: the conversations in time order (their creation time, else their
// first message's; those with neither last, in archive order), the empty ones set aside with why, and the
// chunks — at most `size` messages of one conversation each, one `add()` each, with the idempotency key
// `import:<conversationId>:<firstMessageId>:<lastMessageId>` that makes a repeated chunk a replay.

/** `{ chunks: [{ conversation, messages, key, last }], skipped: [{ conversationId, why }], conversations, messages }`. */
export function plan(conversations, size) {
  const timeOf = (c) => Date.parse(c.createdAt ?? c.messages.find((m) => m.createdAt)?.createdAt ?? "") || Infinity;
  const ordered = conversations.map((c, index) => ({ c, index, t: timeOf(c) })).sort((a, b) => a.t - b.t || a.index - b.index);
  const chunks = [];
  const skipped = [];
  let kept = 0;
  let messages = 0;
  for (const { c } of ordered) {
    if (c.messages.length === 0) {
      const why = c.skippedMessages > 0 ? `no user or assistant text (${c.skippedMessages} messages left out)` : "no messages";
      skipped.push({ conversationId: c.id, why });
      continue;
    }
    kept++;
    messages += c.messages.length;
    for (let from = 0; from < c.messages.length; from += size) {
      const part = c.messages.slice(from, from + size);
      const key = `import:${c.id}:${part[0].id}:${part.at(-1).id}`;
      chunks.push({ conversation: c, messages: part, key, last: from + size >= c.messages.length });
    }
  }
  return { chunks, skipped, conversations: kept, messages };
}

/** Model calls one chunk costs: extraction and decision (`"additive"`: extraction only), one more with graph
 * memory; none without an LLM or with `infer: false`. */
export function callsPerChunk({ llm = true, graph = false, pipeline } = {}, infer) {
  if (infer === false || !llm) return 0;
  return (pipeline === "additive" ? 1 : 2) + (graph ? 1 : 0);
}
