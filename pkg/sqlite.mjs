// `storage: {provider: "sqlite", config: {path}}` in Node: opens the database file for the core's SQLite
// storage with the first library this Node has — `node:sqlite` (built in from Node 22.5) or the
// `better-sqlite3` package (an optional peer dependency) — or the one `config.driver` names. The file is set
// to WAL with `synchronous = FULL` (an acknowledged write survives a crash or a power cut) and locked to
// this process (`locking_mode = EXCLUSIVE`): a second process, or a second open in this one, waits
// `busyTimeoutMs` and then gets `STORAGE_UNAVAILABLE`, so two in-RAM copies never drift apart over one file.
// The core runs the SQL through `exec`, `run` and `all`; errors carry SQLite's code (`SQLITE_FULL`, …).

import { accessSync, constants, existsSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { withConfig } from "./with-config.mjs";

/** SQLite's primary result codes, by number (node:sqlite reports numbers, better-sqlite3 names). */
const CODES = { 1: "ERROR", 3: "PERM", 5: "BUSY", 6: "LOCKED", 7: "NOMEM", 8: "READONLY", 10: "IOERR", 11: "CORRUPT",
  13: "FULL", 14: "CANTOPEN", 26: "NOTADB" };

const failure = (message, code) => Object.assign(new Error(message), { code });

/** `error` with a `SQLITE_*` code whichever library threw it (a `STORAGE_*` one of ours kept as it is). */
function coded(error, otherwise) {
  if (typeof error?.code === "string" && /^(SQLITE|STORAGE)_/.test(error.code)) return error; // ours: a closed file
  if (typeof error?.errcode === "number") return failure(error.message, `SQLITE_${CODES[error.errcode & 0xff] ?? error.errcode}`);
  return failure(error?.message ?? String(error), otherwise);
}

/** Runs `work`, rethrowing a library's error with its `SQLITE_*` code (`otherwise` when it has none). */
function sqlite(work, otherwise = "SQLITE_ERROR") {
  try {
    return work();
  } catch (error) {
    throw coded(error, otherwise);
  }
}

/** `name`, found from this package's folder, or else from the app's (its main script's, then the working
 * folder's): a linked memwasm (`npm link`, a `file:` dependency) has no node_modules of the app above it. */
async function importFromApp(name) {
  try {
    return await import(name);
  } catch (error) {
    for (const from of [process.argv[1], join(process.cwd(), "index.js")].filter(Boolean)) {
      try {
        return await import(pathToFileURL(createRequire(from).resolve(name)).href);
      } catch {
        // Not there either.
      }
    }
    throw error;
  }
}

/** The library to open files with, as `(path, {readOnly}) => {exec, prepare(sql) => {run, rows}, close}`; rejects
 * with `STORAGE_UNAVAILABLE` naming what to install when this Node has none. */
export async function sqliteLibrary(driver) {
  if (driver !== "better-sqlite3") {
    try {
      const { DatabaseSync } = await import("node:sqlite");
      return (path, { readOnly = false } = {}) => {
        const db = new DatabaseSync(path, { readOnly });
        const prepare = (sql) => {
          const statement = db.prepare(sql);
          return { run: (params) => statement.run(...params), rows: (params) => statement.all(...params).map(Object.values) };
        };
        return { exec: (sql) => db.exec(sql), prepare, close: () => db.close() };
      };
    } catch (error) {
      if (driver === "node:sqlite") throw failure(`storage.config.driver "node:sqlite" needs Node 22.5 or later (this is ${process.version}): ${error.message}`, "STORAGE_UNAVAILABLE");
    }
  }
  let Database;
  try {
    ({ default: Database } = await importFromApp("better-sqlite3"));
  } catch (error) {
    const why = `storage.provider "sqlite" needs SQLite: Node 22.5 or later has it built in (node:sqlite); on ${process.version}, run \`npm install better-sqlite3@12\` (13.x needs Node 22)`;
    throw failure(`${why} (${error.message})`, "STORAGE_UNAVAILABLE");
  }
  nativeBuildLoads(Database);
  return (path, { readOnly = false } = {}) => {
    const db = new Database(path, { readonly: readOnly, fileMustExist: readOnly });
    const prepare = (sql) => {
      const statement = db.prepare(sql);
      const blobs = (params) => params.map((p) => (p instanceof Uint8Array && !Buffer.isBuffer(p) ? Buffer.from(p.buffer, p.byteOffset, p.byteLength) : p));
      return { run: (params) => statement.run(...blobs(params)), rows: (params) => statement.raw(true).all(...blobs(params)) };
    };
    return { exec: (sql) => db.exec(sql), prepare, close: () => db.close() };
  };
}

/** Throws `STORAGE_UNAVAILABLE` when better-sqlite3's JavaScript loads but its native build does not (an
 * install that skipped or failed the build, or one made for another Node): the file is not the cause. */
function nativeBuildLoads(Database) {
  try {
    new Database(":memory:").close();
  } catch (error) {
    throw failure(`better-sqlite3 is installed but its native build does not load on Node ${process.version} ` +
      `(ABI ${process.versions.modules}): run \`npm rebuild better-sqlite3\` in the app's folder (or reinstall it), or ` +
      `use Node 22.5 or later, whose built-in node:sqlite needs no build (${error.message})`, "STORAGE_UNAVAILABLE");
  }
}

/** Throws `SQLITE_READONLY` when this process may not write the file, or the folder its journal goes to
 * (SQLite would open such a file read-only, then fail with an I/O error at the first write). */
function writable(path) {
  for (const target of [path, dirname(resolve(path))]) {
    if (!existsSync(target)) continue;
    try {
      accessSync(target, constants.W_OK);
    } catch {
      throw failure(`${target} is not writable by this process`, "SQLITE_READONLY");
    }
  }
}

/** Throws `INVALID_CONFIG` when `path` holds a control character: SQLite's C API ends a path at NUL, so
 * `victim.db\0.x` would open `victim.db` (the core refuses such a config before it opens anything). */
function plainPath(path) {
  const cut = String(path).match(/\p{Cc}/u)?.[0];
  if (cut === undefined) return;
  const code = cut.codePointAt(0).toString(16).toUpperCase().padStart(4, "0");
  throw failure(`storage.config.path: must not contain a control character (found U+${code}): give the file's path as it is`, "INVALID_CONFIG");
}

/** Opens `settings.path` ({path, driver?, busyTimeoutMs}, checked by the core) and locks it to this process. */
export async function openSqlite({ path, driver, busyTimeoutMs }) {
  plainPath(path);
  writable(path);
  const open = await sqliteLibrary(driver);
  const db = sqlite(() => open(path), "SQLITE_CANTOPEN"); // e.g. better-sqlite3's "the directory does not exist"
  try {
    sqlite(() => db.exec(`PRAGMA busy_timeout = ${Number(busyTimeoutMs) | 0}`));
    sqlite(() => db.exec("PRAGMA locking_mode = EXCLUSIVE; PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL"));
    sqlite(() => db.exec("BEGIN IMMEDIATE; COMMIT")); // takes the lock now, not at the first write
  } catch (error) {
    db.close();
    throw error;
  }
  const statements = new Map();
  let closed = false;
  const unclosed = () => {
    if (closed) throw failure(`the SQLite database ${path} was closed (memory.close())`, "STORAGE_UNAVAILABLE");
  };
  const statement = (sql) => {
    unclosed();
    let prepared = statements.get(sql);
    if (!prepared) statements.set(sql, (prepared = sqlite(() => db.prepare(sql))));
    return prepared;
  };
  return {
    exec: (sql) => (unclosed(), sqlite(() => db.exec(sql))),
    run: (sql, params) => sqlite(() => statement(sql).run(params)).changes,
    all: (sql, params) => sqlite(() => statement(sql).rows(params)),
    close() {
      if (closed) return;
      closed = true;
      statements.clear();
      db.close();
    },
  };
}

/** `config` with the opener the core's SQLite storage calls (`storage.open`); other configs as they are. */
export function withSqlite(config) {
  const storage = config?.storage;
  if (!storage || storage.provider !== "sqlite" || storage.open !== undefined) return config;
  return { ...config, storage: { ...storage, open: openSqlite } };
}

/** The Memory class with `withSqlite` applied to every config (constructor, `open`, `fromConfig`). */
export function withSqliteStorage(CoreMemory) {
  return withConfig(CoreMemory, withSqlite);
}
