// Shared setup of the SQLite storage tests: a temporary folder of database files, the drivers this Node has
// (better-sqlite3 always, from tests/package.json; node:sqlite from Node 22.5), and configs over them.
import { after } from "node:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** The SQLite libraries to run the storage contract with. */
export const DRIVERS = ["better-sqlite3"];
try {
  await import("node:sqlite");
  DRIVERS.push("node:sqlite");
} catch {
  // Node before 22.5: better-sqlite3 only.
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
