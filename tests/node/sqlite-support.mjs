// Shared setup of the SQLite storage tests: a temporary folder of database files, the SQLite libraries this
// Node can load (better-sqlite3 from tests/package.json, node:sqlite from Node 22.5), configs over them, and
// a plain connection for reading a file behind the memory's back.
import { after } from "node:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** node:sqlite's DatabaseSync, when this Node has it without a flag. */
const NodeSqlite = await import("node:sqlite").then((m) => m.DatabaseSync).catch(() => undefined);
/** better-sqlite3, when it loads here (a build for another Node's ABI does not). */
const BetterSqlite = await import("better-sqlite3")
  .then((m) => (new m.default(":memory:").close(), m.default))
  .catch(() => undefined);

/** The SQLite libraries to run the storage contract with. */
export const DRIVERS = [...(BetterSqlite ? ["better-sqlite3"] : []), ...(NodeSqlite ? ["node:sqlite"] : [])];

/** A plain connection to the file at `path` (the memory on it must be closed): `all`, `get`, `run` and
 * `exec` of SQL with parameters, `pragma(name)` (its value), `close()`. */
export function rawDatabase(path) {
  const db = NodeSqlite ? new NodeSqlite(path) : new BetterSqlite(path);
  return {
    all: (sql, ...params) => db.prepare(sql).all(...params),
    get: (sql, ...params) => db.prepare(sql).get(...params),
    run: (sql, ...params) => db.prepare(sql).run(...params),
    exec: (sql) => db.exec(sql),
    pragma: (name) => Object.values(db.prepare(`PRAGMA ${name}`).get())[0],
    close: () => db.close(),
  };
}

/** A temporary folder for this test file, removed after its tests. */
export function scratchFolder() {
  const dir = mkdtempSync(join(tmpdir(), "memwasm-sqlite-"));
  after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** A folder for this test file's databases; each call of the function it returns names a new file. */
export function databaseFolder() {
  const dir = scratchFolder();
  let next = 0;
  return () => join(dir, `memory-${++next}.db`);
}

/** `storage` for the database at `path` through `driver`. */
export const sqliteStorage = (path, driver, more = {}) => ({ provider: "sqlite", config: { path, driver, ...more } });
