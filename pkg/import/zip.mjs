// One file out of a zip archive (the ChatGPT and Claude data exports come as one): the central directory is
// read from the end of the archive, the entry found by its name (at the top or in a folder), and its bytes
// inflated with the platform's DecompressionStream("deflate-raw") — browsers, Node 20+, Workers. Stored
// (method 0) and deflated (method 8) entries; no zip64, no encryption (an `IMPORT_FORMAT` error says to
// unpack the archive then).
import { MemoryError } from "../dist/errors.js";

const EOCD = 0x06054b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;

const fail = (why) => new MemoryError(`import: ${why}; nothing was imported`, "IMPORT_FORMAT");

/** The bytes of the entry called `name` (or `…/name`, the shortest such path) of the zip `bytes`. */
export async function unzipEntry(bytes, name) {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const entry = find(view, bytes, name);
  if (view.getUint32(entry.local, true) !== LOCAL) throw fail("the zip archive is damaged (a local header is missing)");
  const start = entry.local + 30 + view.getUint16(entry.local + 26, true) + view.getUint16(entry.local + 28, true);
  const data = bytes.subarray(start, start + entry.size);
  if (entry.method === 0) return data;
  if (entry.method !== 8) throw fail(`${entry.name} is compressed with method ${entry.method}: unpack the archive and import ${name}`);
  if (typeof DecompressionStream === "undefined") throw fail(`this platform cannot unpack zip archives: unpack it and import ${name}`);
  try {
    const stream = new Blob([data]).stream().pipeThrough(new DecompressionStream("deflate-raw"));
    return new Uint8Array(await new Response(stream).arrayBuffer());
  } catch (error) {
    throw fail(`${entry.name} in the zip archive cannot be inflated (${error.message})`);
  }
}

/** The central directory's entry for `name`: `{ name, method, size, local }`. */
function find(view, bytes, name) {
  let end = -1;
  for (let at = bytes.length - 22; at >= Math.max(0, bytes.length - 22 - 0xffff); at--) {
    if (view.getUint32(at, true) === EOCD) {
      end = at;
      break;
    }
  }
  if (end < 0) throw fail("the zip archive is damaged (no central directory)");
  const count = view.getUint16(end + 10, true);
  let at = view.getUint32(end + 16, true);
  const names = [];
  let best;
  const decoder = new TextDecoder();
  for (let i = 0; i < count; i++) {
    if (at + 46 > bytes.length || view.getUint32(at, true) !== CENTRAL) throw fail("the zip archive is damaged (central directory)");
    const length = view.getUint16(at + 28, true);
    const entryName = decoder.decode(bytes.subarray(at + 46, at + 46 + length));
    const entry = { name: entryName, method: view.getUint16(at + 10, true), size: view.getUint32(at + 20, true), local: view.getUint32(at + 42, true) };
    names.push(entryName);
    if ((entryName === name || entryName.endsWith(`/${name}`)) && (!best || entryName.length < best.name.length)) best = entry;
    at += 46 + length + view.getUint16(at + 30, true) + view.getUint16(at + 32, true);
  }
  if (!best) throw fail(`the zip archive holds no ${name} (it holds ${names.slice(0, 5).join(", ")}${names.length > 5 ? ", …" : ""})`);
  if (best.size === 0xffffffff || best.local === 0xffffffff) throw fail(`the zip archive is a zip64 one: unpack it and import ${name}`);
  return best;
}
