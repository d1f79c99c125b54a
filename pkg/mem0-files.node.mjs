// Where `memwasm/mem0` keeps memories in Node: the SQLite file mem0 would keep them in, and what to do when
// that file is mem0's own.
//
// mem0 keeps its memory vector store at `vectorStore.config.dbPath` (default `~/.mem0/vector_store.db`, from
// `os.homedir()`) and its history at `historyStore.config.historyDbPath`, else `historyDbPath`, else
// `memory.db` in the working folder. memwasm keeps memories and history in one file: the vector store's
// (with Chroma, which holds the vectors, the history's). `:memory:` keeps them in RAM, as in mem0.
//
// A file that holds mem0's database (its `vectors` or `memory_history` table, and no memwasm tables) is left
// as it is: memwasm keeps its own file beside it (`vector_store.db` → `vector_store.memwasm.db`), and when
// it makes that file it imports mem0's memories (with their vectors) and their history from mem0's files,
// read-only. The import is written to a temporary file and linked in place once complete, so a crash leaves
// no half-imported file and two processes never both import.
import { createHash, randomUUID } from "node:crypto";
import { existsSync, linkSync, mkdirSync, rmSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { MemoryError } from "./dist/errors.js";
import { sqliteLibrary } from "./sqlite.mjs";

/** mem0's payload keys that are not metadata (mem0's `PAYLOAD_METADATA_EXCLUDED_KEYS`, both cases of ids). */
const NOT_METADATA = new Set(["data", "hash", "createdAt", "updatedAt", "textLemmatized", "attributedTo", "user_id",
  "agent_id", "run_id", "userId", "agentId", "runId"]);

/** The file mem0 would keep this config's memories in (resolved), or `":memory:"`; `INVALID_CONFIG` for a
 * path that is no file's. */
export function mem0File(config) {
  const vectorStore = config?.vectorStore;
  const provider = String(vectorStore?.provider ?? "memory").toLowerCase();
  const path = provider === "memory" ? filePath(vectorStore?.config?.dbPath, "vectorStore.config.dbPath") : historyFile(config);
  return path === ":memory:" ? path : resolve(path ?? join(homedir(), ".mem0", "vector_store.db"));
}

/** mem0's history file: `historyStore.config.historyDbPath`, else `historyDbPath`, else `memory.db`. */
function historyFile(config) {
  const given = (value, key) => filePath(value, key);
  return given(config?.historyStore?.config?.historyDbPath, "historyStore.config.historyDbPath") ??
    given(config?.historyDbPath, "historyDbPath") ?? "memory.db";
}

/** `value` when it names a file, `undefined` when not given (mem0 reads "" so too); else `INVALID_CONFIG`. */
function filePath(value, key) {
  if (value === undefined || value === null || value === "") return undefined;
  const invalid = (why) => new MemoryError(`invalid config: ${key}: ${why}`, "INVALID_CONFIG");
  if (typeof value !== "string") throw invalid(`a file's path or ":memory:", not ${JSON.stringify(value)}`);
  // SQLite's C API ends a path at NUL: "victim.db\0.x" would open victim.db.
  if (/\p{Cc}/u.test(value)) throw invalid("must not contain a control character: give the file's path as it is");
  return value;
}

/** memwasm's file beside mem0's `path`. */
export const besideMem0 = (path) => `${path.replace(/\.db$/, "")}.memwasm.db`;

/** The file to open for `path` (see the module), importing mem0's database into it the first time.
 * `importInto(file, jsonl)` writes an export into a new memwasm file. Resolves `{path, imported?}`. */
export async function chooseFile(path, config, importInto) {
  mkdirSync(dirname(path), { recursive: true }); // as mem0 does
  const beside = besideMem0(path);
  if (existsSync(beside)) return { path: beside };
  if (!existsSync(path)) return { path };
  const open = await sqliteLibrary();
  let tables;
  try {
    tables = read(open, path, (db) => db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").rows([]).flat());
  } catch {
    return { path }; // not a database it can read: memwasm's storage says why when it opens it
  }
  if (tables.includes("memories") || !["vectors", "memory_history"].some((name) => tables.includes(name))) return { path };
  const memories = tables.includes("vectors") ? read(open, path, mem0Memories) : [];
  const history = memories.length && !config?.disableHistory ? mem0History(open, resolve(historyFile(config))) : [];
  const temporary = `${beside}.${process.pid}.${randomUUID().slice(0, 8)}.tmp`;
  try {
    await importInto(temporary, exportLines(memories, history));
    try {
      linkSync(temporary, beside); // fails if another process linked its import first: theirs is kept
    } catch (error) {
      if (error.code !== "EEXIST") throw error;
    }
  } finally {
    for (const suffix of ["", "-wal", "-shm"]) rmSync(temporary + suffix, { force: true });
  }
  return { path: beside, imported: { from: path, memories: memories.length, history: history.length } };
}

/** `work(db)` on the file at `path`, opened read-only. */
function read(open, path, work) {
  const db = open(path, { readOnly: true });
  try {
    return work(db);
  } finally {
    db.close();
  }
}

/** mem0's memories (its `vectors` table) as export lines. */
function mem0Memories(db) {
  return db.prepare("SELECT id, vector, payload FROM vectors").rows([]).map(([id, vector, payload]) => {
    const fields = JSON.parse(payload);
    const memory = String(fields.data ?? "");
    const metadata = Object.fromEntries(Object.entries(fields).filter(([key]) => !NOT_METADATA.has(key)));
    const scope = { userId: fields.user_id ?? fields.userId, agentId: fields.agent_id ?? fields.agentId, runId: fields.run_id ?? fields.runId };
    const createdAt = fields.createdAt ?? new Date().toISOString();
    return { kind: "memory", id: String(id), memory, hash: md5(memory), metadata, createdAt, updatedAt: fields.updatedAt ?? createdAt,
      ...scope, ...(fields.attributedTo ? { attributedTo: fields.attributedTo } : {}), embedding: unitBase64(vector) };
  });
}

/** mem0's history records (its `memory_history` table), oldest first; none when the file has none. */
function mem0History(open, path) {
  if (!existsSync(path)) return [];
  const sql = "SELECT memory_id, previous_value, new_value, action, created_at, updated_at, is_deleted FROM memory_history ORDER BY id";
  let rows;
  try {
    rows = read(open, path, (db) => db.prepare(sql).rows([]));
  } catch {
    return []; // not mem0's history (no such table), or a file locked by another memory
  }
  return rows
    .filter(([, , , action]) => ["ADD", "UPDATE", "DELETE"].includes(action))
    .map(([memoryId, oldValue, newValue, event, createdAt, updatedAt, isDeleted]) => ({ kind: "history", id: randomUUID(),
      memoryId: String(memoryId), event, oldValue, newValue, timestamp: updatedAt ?? createdAt ?? new Date().toISOString(), isDeleted: Boolean(isDeleted) }));
}

/** The export of `memories` and `history`; history records get their memory's scope. */
function exportLines(memories, history) {
  const scopes = new Map(memories.map((m) => [m.id, { userId: m.userId, agentId: m.agentId, runId: m.runId }]));
  const lines = [{ kind: "memwasm-export", version: 2, memories: memories.length, history: history.length }, ...memories,
    ...history.map((record) => ({ ...record, ...scopes.get(record.memoryId) }))];
  return lines.map((line) => JSON.stringify(line)).join("\n");
}

const md5 = (text) => createHash("md5").update(text, "utf8").digest("hex");

/** mem0's vector (little-endian f32 bytes) scaled to unit length, as base64 (cosine ranking is unchanged). */
function unitBase64(bytes) {
  const copy = Uint8Array.from(bytes);
  const vector = new Float32Array(copy.buffer, 0, copy.byteLength >> 2);
  let norm = 0;
  for (const x of vector) norm += x * x;
  norm = Math.sqrt(norm);
  if (norm > 0) for (let i = 0; i < vector.length; i++) vector[i] /= norm;
  return Buffer.from(copy.buffer).toString("base64");
}
