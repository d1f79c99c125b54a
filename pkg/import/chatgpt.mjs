// ChatGPT's data export: `conversations.json` (in the export's zip) is an array of conversations
//   { id | conversation_id, title, create_time (epoch seconds), update_time, current_node,
//     mapping: { <node id>: { id, parent (node id | null), children: [node id],
//       message: null | { id, author: { role: "user"|"assistant"|"system"|"tool", name? }, create_time (epoch
//         seconds | null), content: { content_type: "text"|"multimodal_text"|"code"|…, parts: [string | object] },
//         recipient ("all" when the message is for the conversation), metadata: { is_visually_hidden_from_conversation? } } } } }
// The mapping is a tree: editing a message or regenerating an answer starts a branch. What the user kept is
// the path from `current_node` up to the root (without `current_node`, the newest child at each step down).
// Kept: user and assistant messages addressed to the conversation, their string parts joined; left out and
// counted: system, tool and hidden messages, messages to a tool (`recipient` not "all"), content types other
// than text, and non-text parts (images, attachments: objects among the parts).
import { conversationError, formatError, isObject } from "./source.mjs";

const TEXT_TYPES = new Set(["text", "multimodal_text"]);

/** The conversations of a parsed `conversations.json`, normalised (see importer.mjs); throws `IMPORT_FORMAT`. */
export function parseChatgpt(value) {
  const list = Array.isArray(value) ? value : isObject(value) && isObject(value.mapping) ? [value] : undefined;
  if (!list) throw formatError("a ChatGPT export is an array of conversations, each with a `mapping` (conversations.json)");
  return list.map((conversation, index) => parseConversation(conversation, index));
}

function parseConversation(c, index) {
  const fail = (why) => {
    throw conversationError(index, isObject(c) ? c.conversation_id ?? c.id : undefined, why);
  };
  if (!isObject(c)) fail("not an object");
  const id = c.conversation_id ?? c.id;
  if (typeof id !== "string" || id === "") fail("no `id` or `conversation_id`");
  if (!isObject(c.mapping)) fail("`mapping` is not an object of nodes");
  if (c.title != null && typeof c.title !== "string") fail("`title` is not a string");
  const createdAt = epoch(c.create_time, fail, "`create_time`");
  const out = { id, title: c.title ?? "", createdAt, messages: [], skippedMessages: 0, skippedParts: 0 };
  for (const nodeId of path(c, fail)) {
    const node = c.mapping[nodeId];
    if (node.message == null) continue;
    const message = readMessage(node, nodeId, fail, out);
    if (message) out.messages.push({ ...message, createdAt: message.createdAt ?? createdAt });
  }
  return out;
}

/** Node ids from the root down to the kept leaf. */
function path(c, fail) {
  const nodes = c.mapping;
  const ids = Object.keys(nodes);
  for (const nodeId of ids) if (!isObject(nodes[nodeId])) fail(`node ${JSON.stringify(nodeId)} is not an object`);
  if (ids.length === 0) return [];
  let leaf = c.current_node;
  if (leaf == null) leaf = newestLeaf(nodes, ids, fail);
  if (typeof leaf !== "string" || !nodes[leaf]) fail(`\`current_node\` ${JSON.stringify(leaf)} is not a node of \`mapping\``);
  const up = [];
  const seen = new Set();
  for (let at = leaf; at != null; at = nodes[at].parent) {
    if (typeof at !== "string" || !nodes[at]) fail(`node ${JSON.stringify(up.at(-1))} has parent ${JSON.stringify(at)}, which is not in \`mapping\``);
    if (seen.has(at)) fail(`the parents of node ${JSON.stringify(leaf)} go round in a loop at ${JSON.stringify(at)}`);
    seen.add(at);
    up.push(at);
  }
  return up.reverse();
}

/** Without `current_node`: from the root, the last child at each step. */
function newestLeaf(nodes, ids, fail) {
  const roots = ids.filter((nodeId) => nodes[nodeId].parent == null);
  if (roots.length !== 1) fail(`no \`current_node\`, and ${roots.length} root nodes`);
  let at = roots[0];
  for (let steps = 0; steps <= ids.length; steps++) {
    const children = nodes[at].children ?? [];
    if (!Array.isArray(children)) fail(`node ${JSON.stringify(at)}: \`children\` is not an array`);
    if (children.length === 0) return at;
    at = children.at(-1);
    if (!nodes[at]) fail(`a child ${JSON.stringify(at)} is not in \`mapping\``);
  }
  return fail("the children go round in a loop");
}

/** `{ id, role, content, createdAt }` of a node's message, or `undefined` (counted in `out`) when it is left out. */
function readMessage(node, nodeId, fail, out) {
  const m = node.message;
  const where = `message of node ${JSON.stringify(nodeId)}`;
  if (!isObject(m)) fail(`${where} is not an object`);
  const role = m.author?.role;
  if (typeof role !== "string") fail(`${where} has no \`author.role\``);
  if (!isObject(m.content) || typeof m.content.content_type !== "string") fail(`${where} has no \`content.content_type\``);
  const id = m.id ?? nodeId;
  if (typeof id !== "string" || id === "") fail(`${where}: \`id\` is not a string`);
  const createdAt = epoch(m.create_time, fail, `${where}: \`create_time\``);
  const hidden = m.metadata?.is_visually_hidden_from_conversation === true;
  const toTool = m.recipient != null && m.recipient !== "all";
  if ((role !== "user" && role !== "assistant") || hidden || toTool) return void out.skippedMessages++;
  if (!TEXT_TYPES.has(m.content.content_type)) return void out.skippedMessages++;
  const parts = m.content.parts ?? [];
  if (!Array.isArray(parts)) fail(`${where}: \`content.parts\` is not an array`);
  const texts = [];
  for (const part of parts) {
    if (typeof part === "string") {
      if (part.trim() !== "") texts.push(part);
    } else if (part != null) out.skippedParts++;
  }
  if (texts.length === 0) return void out.skippedMessages++;
  return { id, role, content: texts.join("\n"), createdAt };
}

/** ISO 8601 of epoch seconds, `undefined` for null or absent; fails on anything else. */
function epoch(seconds, fail, what) {
  if (seconds == null) return undefined;
  if (typeof seconds !== "number" || !Number.isFinite(seconds) || seconds < 0) fail(`${what} is not epoch seconds`);
  return new Date(Math.round(seconds * 1000)).toISOString();
}
