// What `importConversations(source)` accepts, read into `{ text, value }`: the text of an export (a string),
// its bytes (`Uint8Array`, `ArrayBuffer`, `Blob`: UTF-8 JSON, or a zip archive holding `conversations.json`,
// see zip.mjs), or a value already parsed. `value` is the parsed JSON, `undefined` when the text is not one
// JSON value (this library's export is JSON lines). And the coded errors of the importers.
import { MemoryError } from "../dist/errors.js";
import { unzipEntry } from "./zip.mjs";

/** `IMPORT_FORMAT`: the archive is not what its format says; nothing was added. */
export const formatError = (why) => new MemoryError(`import: ${why}; nothing was imported`, "IMPORT_FORMAT");

/** `IMPORT_FORMAT` naming the conversation (its index in the archive and its id) and what is wrong. */
export function conversationError(index, id, why, what = "conversation") {
  const named = typeof id === "string" || typeof id === "number" ? ` (id ${JSON.stringify(id)})` : "";
  return formatError(`${what} ${index}${named}: ${why}`);
}

export const invalidInput = (why) => new MemoryError(`importConversations: ${why}`, "INVALID_INPUT");

export const isObject = (value) => value !== null && typeof value === "object" && !Array.isArray(value);

/** The archive read into `{ text, value }`. */
export async function readSource(source) {
  if (typeof source === "string") return parsed(source);
  if (source instanceof ArrayBuffer) return fromBytes(new Uint8Array(source));
  if (ArrayBuffer.isView(source)) return fromBytes(new Uint8Array(source.buffer, source.byteOffset, source.byteLength));
  if (typeof Blob !== "undefined" && source instanceof Blob) return fromBytes(new Uint8Array(await source.arrayBuffer()));
  if (source !== null && typeof source === "object") return { text: undefined, value: source };
  throw invalidInput("`source` must be the export's text, its bytes (Uint8Array, ArrayBuffer, Blob) or its parsed JSON");
}

async function fromBytes(bytes) {
  if (bytes[0] === 0x50 && bytes[1] === 0x4b && bytes[2] === 0x03 && bytes[3] === 0x04) {
    return fromBytes(await unzipEntry(bytes, "conversations.json"));
  }
  let text;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw formatError("the file is not UTF-8 text (a conversations.json, or the export's zip archive)");
  }
  return parsed(text);
}

function parsed(text) {
  const clean = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  try {
    return { text: clean, value: JSON.parse(clean) };
  } catch (error) {
    return { text: clean, value: undefined, parseError: error.message };
  }
}
