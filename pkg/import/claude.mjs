// Claude's data export: `conversations.json` (in the export's zip) is an array of conversations
//   { uuid, name, created_at (ISO 8601), updated_at, account: { uuid },
//     chat_messages: [ { uuid, sender: "human"|"assistant", text, content: [ { type: "text"|"tool_use"|
//       "tool_result"|"thinking"|…, text? } ], created_at, updated_at,
//       attachments: [ { file_name, file_type, file_size, extracted_content } ], files: [ { file_name } ] } ] }
// Messages come in the order of `chat_messages`; "human" becomes role "user". A message's text is its
// content's text blocks (or `text` when it has no content array); other blocks (tool use, thinking, images)
// and its attachments and files are left out and counted, and so is a message with no text.
import { conversationError, formatError, isObject } from "./source.mjs";

const ROLES = { human: "user", assistant: "assistant" };

/** The conversations of a parsed Claude `conversations.json`, normalised (see importer.mjs); throws `IMPORT_FORMAT`. */
export function parseClaude(value) {
  if (!Array.isArray(value)) throw formatError("a Claude export is an array of conversations, each with `chat_messages` (conversations.json)");
  return value.map((conversation, index) => parseConversation(conversation, index));
}

function parseConversation(c, index) {
  const fail = (why) => {
    throw conversationError(index, isObject(c) ? c.uuid : undefined, why);
  };
  if (!isObject(c)) fail("not an object");
  if (typeof c.uuid !== "string" || c.uuid === "") fail("no `uuid`");
  if (!Array.isArray(c.chat_messages)) fail("`chat_messages` is not an array");
  if (c.name != null && typeof c.name !== "string") fail("`name` is not a string");
  const createdAt = iso(c.created_at, fail, "`created_at`");
  const out = { id: c.uuid, title: c.name ?? "", createdAt, messages: [], skippedMessages: 0, skippedParts: 0 };
  c.chat_messages.forEach((m, at) => {
    const message = readMessage(m, `chat_messages[${at}]`, fail, out);
    if (message) out.messages.push({ ...message, createdAt: message.createdAt ?? createdAt });
  });
  return out;
}

function readMessage(m, where, fail, out) {
  if (!isObject(m)) fail(`${where} is not an object`);
  if (typeof m.uuid !== "string" || m.uuid === "") fail(`${where} has no \`uuid\``);
  if (typeof m.sender !== "string") fail(`${where} has no \`sender\``);
  const createdAt = iso(m.created_at, fail, `${where}: \`created_at\``);
  for (const key of ["attachments", "files"]) {
    if (m[key] == null) continue;
    if (!Array.isArray(m[key])) fail(`${where}: \`${key}\` is not an array`);
    out.skippedParts += m[key].length;
  }
  const texts = [];
  if (Array.isArray(m.content) && m.content.length > 0) {
    for (const block of m.content) {
      if (!isObject(block) || typeof block.type !== "string") fail(`${where}: a content block has no \`type\``);
      if (block.type === "text" && typeof block.text === "string") {
        if (block.text.trim() !== "") texts.push(block.text);
      } else out.skippedParts++;
    }
  } else if (m.text != null) {
    if (typeof m.text !== "string") fail(`${where}: \`text\` is not a string`);
    if (m.text.trim() !== "") texts.push(m.text);
  }
  const role = ROLES[m.sender];
  if (!role || texts.length === 0) return void out.skippedMessages++;
  return { id: m.uuid, role, content: texts.join("\n"), createdAt };
}

/** `value` as ISO 8601, `undefined` when absent; fails when it is not a time. */
function iso(value, fail, what) {
  if (value == null) return undefined;
  const ms = typeof value === "string" ? Date.parse(value) : NaN;
  if (Number.isNaN(ms)) fail(`${what} is not an ISO 8601 time`);
  return new Date(ms).toISOString();
}
