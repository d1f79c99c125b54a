// examples/node-sqlite.mjs stores memories in a SQLite file, exits, and a second process finds them.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { databaseFolder } from "./sqlite-support.mjs";

const example = fileURLToPath(new URL("../../examples/node-sqlite.mjs", import.meta.url));
/** Run from tests/, whose node_modules has better-sqlite3 (Node 20 has no SQLite of its own). */
const cwd = fileURLToPath(new URL("..", import.meta.url));
const newFile = databaseFolder();

/** One run of the example on `path`, in a process of its own; resolves with what it printed. */
const run = (path) =>
  new Promise((resolve, reject) =>
    execFile(process.execPath, [example, path], { cwd, timeout: 30_000 }, (error, stdout, stderr) =>
      error ? reject(new Error(`${error.message}\n${stderr}`)) : resolve(stdout),
    ),
  );

test("the SQLite example keeps its memories across two processes", { timeout: 60_000 }, async () => {
  const path = newFile();
  assert.match(await run(path), /^stored 3 memories in .*; run me again/);
  const second = await run(path);
  assert.match(second, /^3 memories in .*, kept from an earlier run/);
  assert.match(second, /^ {2}Alice drinks green tea every morning$/m);
});
