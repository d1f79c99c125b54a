// `importConversations(memory, source, options)`: an export of past conversations (or memories) into a
// memory. The whole archive is read and checked first (`IMPORT_FORMAT` naming the conversation, nothing
// added); then the conversations go in time order, one `add()` per chunk of messages with the messages'
// ids, conversation and times, the chunk's last time as `eventTime`, and an idempotency key, so importing
// the same archive again (after an abort, a crash, or when it was complete) replays what was committed at
// no model cost and adds only the rest. Formats: chatgpt.mjs, claude.mjs, mem0.mjs, memwasm.mjs.
import { MemoryError } from "../dist/errors.js";
import { formatError, invalidInput, isObject, readSource } from "./source.mjs";
import { FORMATS, detect } from "./detect.mjs";
import { parseChatgpt } from "./chatgpt.mjs";
import { parseClaude } from "./claude.mjs";
import { importMem0, parseMem0 } from "./mem0.mjs";
import { countMemwasm } from "./memwasm.mjs";
import { callsPerChunk, plan } from "./plan.mjs";
import { settingsOf } from "./settings.mjs";

const OPTIONS = ["format", "userId", "agentId", "runId", "infer", "dryRun", "onProgress", "signal", "chunkMessages"];
const SCOPE = ["userId", "agentId", "runId"];

export async function importConversations(memory, source, options = {}) {
  const o = checkOptions(options);
  const read = await readSource(source);
  const format = o.format === "auto" ? detect(read) : o.format;
  if (format === "memwasm") return importMemwasm(memory, read.text, o);
  if (read.value === undefined) throw formatError(`the file is not JSON (${read.parseError})`);
  if (format === "mem0") return runMem0(memory, parseMem0(read.value, o.scope), o);
  const conversations = format === "chatgpt" ? parseChatgpt(read.value) : parseClaude(read.value);
  return runConversations(memory, conversations, o, format);
}

function checkOptions(options) {
  if (!isObject(options)) throw invalidInput("options must be an object");
  for (const key of Object.keys(options)) if (!OPTIONS.includes(key)) throw invalidInput(`\`${key}\` is not an option (the options are ${OPTIONS.join(", ")})`);
  const { format = "auto", infer, dryRun = false, onProgress, signal, chunkMessages = 20 } = options;
  if (format !== "auto" && !FORMATS.includes(format)) throw invalidInput(`\`format\` must be "auto" or one of ${FORMATS.join(", ")}`);
  if (infer !== undefined && typeof infer !== "boolean") throw invalidInput("`infer` must be a boolean");
  if (typeof dryRun !== "boolean") throw invalidInput("`dryRun` must be a boolean");
  if (onProgress !== undefined && typeof onProgress !== "function") throw invalidInput("`onProgress` must be a function");
  if (signal !== undefined && typeof signal?.aborted !== "boolean") throw invalidInput("`signal` must be an AbortSignal");
  if (!Number.isSafeInteger(chunkMessages) || chunkMessages < 1 || chunkMessages > 1000) throw invalidInput("`chunkMessages` must be a whole number from 1 to 1000");
  const scope = {};
  for (const key of SCOPE) {
    if (options[key] === undefined) continue;
    if (typeof options[key] !== "string" || options[key] === "") throw invalidInput(`\`${key}\` must be a non-empty string`);
    scope[key] = options[key];
  }
  const stopIfAborted = (done, total) => {
    if (signal?.aborted) throw new MemoryError(`importConversations: stopped by its signal after ${done} of ${total} chunks (what was committed stays: import again to resume)`, "ABORTED");
  };
  return { format, infer, dryRun, onProgress, signal, chunkMessages, scope, stopIfAborted };
}

/** `onProgress(p)`, whatever it throws ignored. */
function tell(o, progress) {
  try {
    o.onProgress?.(progress);
  } catch {
    // the caller's callback failing does not stop the import
  }
}

const written = (result) => (result?.results ?? []).filter((e) => e.event === "ADD" || e.event === "UPDATE").length;
/** DELETE events of an `add()`: facts a later message contradicted, and facts over the scope's budget. */
const deleted = (result) => (result?.results ?? []).filter((e) => e.event === "DELETE").length;

async function runConversations(memory, conversations, o, format) {
  if (Object.keys(o.scope).length === 0) throw new MemoryError("importConversations: name the memories' owner (`userId`, `agentId` or `runId`)", "SCOPE_REQUIRED");
  const p = plan(conversations, o.chunkMessages);
  const perChunk = callsPerChunk(settingsOf.get(memory), o.infer);
  const counts = { conversations: p.conversations, messages: p.messages, chunks: p.chunks.length };
  if (o.dryRun) return { dryRun: true, format, ...counts, modelCalls: perChunk * p.chunks.length, skipped: p.skipped };
  const done = { conversations: 0, messages: 0, chunks: 0 };
  const report = { format, ...counts, replayed: 0, facts: 0, deleted: 0, skipped: p.skipped, modelCalls: 0, ...leftOut(conversations) };
  const progress = () => tell(o, {
    conversations: { done: done.conversations, total: counts.conversations },
    messages: { done: done.messages, total: counts.messages },
    chunks: { done: done.chunks, total: counts.chunks },
    facts: report.facts, replayed: report.replayed,
  });
  progress();
  for (const chunk of p.chunks) {
    o.stopIfAborted(done.chunks, counts.chunks);
    const c = chunk.conversation;
    const messages = chunk.messages.map((m) => ({ role: m.role, content: m.content, id: m.id, conversationId: c.id, ...(m.createdAt ? { createdAt: m.createdAt } : {}) }));
    const eventTime = chunk.messages.at(-1).createdAt;
    const options = { ...o.scope, idempotencyKey: chunk.key, ...(eventTime ? { eventTime } : {}), ...(o.infer === undefined ? {} : { infer: o.infer }) };
    const result = await memory.add(messages, options);
    stopIfFailed(result, chunk, done.chunks, counts.chunks);
    if (result.replayed) report.replayed++;
    else [report.facts, report.deleted, report.modelCalls] = [report.facts + written(result), report.deleted + deleted(result), report.modelCalls + perChunk];
    done.chunks++;
    done.messages += chunk.messages.length;
    if (chunk.last) done.conversations++;
    progress();
  }
  return report;
}

/** Warnings of an `add()` that a failed model call stopped (it stored nothing and kept no key). */
const STOPPED = ["EXTRACTION_FAILED", "DECISION_FAILED", "EMBEDDING_FAILED"];

/** Throws when the chunk's `add()` was stopped by a failed model call (a dead or refusing host): with the
 * failure's own code, so that an import does not run on through every chunk of the archive making calls that
 * fail; the chunks committed before stay, and importing again resumes at this one. */
function stopIfFailed(result, chunk, done, total) {
  const stopped = (result?.warnings ?? []).find((w) => STOPPED.includes(w.code));
  if (!stopped) return;
  const where = `chunk ${done + 1} of ${total} (conversation ${JSON.stringify(chunk.conversation.id)})`;
  throw new MemoryError(`importConversations: ${where} failed: ${stopped.message} (the chunks before it are committed: import again to resume)`,
    stopped.cause ?? "LLM_RESPONSE", stopped.status);
}

/** Messages and parts the archive had that were not imported (system, tool, hidden; images, attachments). */
const leftOut = (conversations) => ({
  skippedMessages: conversations.reduce((n, c) => n + c.skippedMessages, 0),
  skippedParts: conversations.reduce((n, c) => n + c.skippedParts, 0),
});

async function runMem0(memory, records, o) {
  const counts = { conversations: 0, messages: records.length, chunks: records.length };
  if (o.dryRun) return { dryRun: true, format: "mem0", ...counts, modelCalls: 0, skipped: [] };
  const report = { format: "mem0", ...counts, replayed: 0, facts: 0, deleted: 0, skipped: [], modelCalls: 0 };
  let done = 0;
  const step = async (result, record, why) => {
    if (why) report.skipped.push({ conversationId: record.id, why });
    else if (result.replayed) report.replayed++;
    else [report.facts, report.deleted] = [report.facts + written(result), report.deleted + deleted(result)];
    done++;
    tell(o, { conversations: { done: 0, total: 0 }, messages: { done, total: records.length }, chunks: { done, total: records.length }, facts: report.facts, replayed: report.replayed });
  };
  await importMem0(memory, records, { step, stopIfAborted: () => o.stopIfAborted(done, records.length) });
  return report;
}

async function importMemwasm(memory, text, o) {
  const { memories, history } = countMemwasm(text);
  const counts = { conversations: 0, messages: 0, chunks: 0 };
  if (o.dryRun) return { dryRun: true, format: "memwasm", ...counts, memories, history, modelCalls: 0, skipped: [] };
  o.stopIfAborted(0, 0);
  const result = await memory.importMemories(text, o.signal ? { signal: o.signal } : {});
  tell(o, { conversations: { done: 0, total: 0 }, messages: { done: 0, total: 0 }, chunks: { done: 0, total: 0 }, facts: result.memories, replayed: 0 });
  return { format: "memwasm", ...counts, replayed: 0, facts: result.memories, memories: result.memories, history: result.history,
    skipped: [], modelCalls: 0, ...(result.warnings?.length ? { warnings: result.warnings } : {}) };
}
