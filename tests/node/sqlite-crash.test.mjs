// SQLite storage under faults that only a real process shows: killed with SIGKILL in the middle of 50
// concurrent adds (every acknowledged add is there with its history, nothing half-written, the index
// equals the file), and a file this process may not write (a coded error, nothing lost).
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { chmodSync } from "node:fs";
import { dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { Memory, T, scriptedServer, testConfig, seed } from "./helpers.mjs";
import { databaseFolder, rawDatabase, sqliteStorage } from "./sqlite-support.mjs";
import { childLines } from "./child-lines.mjs";

const server = scriptedServer();
const newFile = databaseFolder();
const CHILD = fileURLToPath(new URL("./sqlite-crash.child.mjs", import.meta.url));
const alice = { userId: "alice" };

/** Runs the child on `path`; `onLine(line, child)` sees each line it prints. Resolves with every line. */
function runChild(path, mode, onLine = () => {}, options = {}) {
  const child = spawn(process.execPath, [CHILD, path, server.baseUrl, mode ?? ""], { stdio: ["ignore", "pipe", "inherit"], ...options });
  return childLines(child, onLine);
}

test("SIGKILL during 50 concurrent adds loses no acknowledged add and leaves nothing half-written", T, async () => {
  const path = newFile();
  // Embeddings answer at different times, so the adds finish one by one and the kill lands among them.
  server.script(Array.from({ length: 50 }, (_, n) => ({ kind: "embedding", match: `crash note ${n} `, delayMs: 5 + n * 6 })));
  let acks = 0;
  const { lines, signal } = await runChild(path, "", (line, child) => {
    if (line.startsWith("ack ") && ++acks === 12) child.kill("SIGKILL");
  });
  assert.equal(signal, "SIGKILL");
  const acked = lines.filter((line) => line.startsWith("ack ")).map((line) => line.split(" "));
  assert.ok(acked.length >= 12 && acked.length < 50, `killed mid-way: ${acked.length} of 50 acknowledged`);

  const memory = await Memory.open(testConfig(server, { storage: sqliteStorage(path) }));
  const all = (await memory.getAll({ ...alice, limit: 100 })).results;
  assert.ok(all.length >= acked.length && all.length <= 50, `${all.length} memories after the crash`);
  for (const [, id, n] of acked) {
    const kept = await memory.get(id);
    assert.equal(kept?.memory, `crash note ${n} about topic ${n}`, `acknowledged add ${n} is there`);
  }
  for (const item of all) {
    assert.deepEqual((await memory.history(item.id)).map((h) => h.event), ["ADD"], `${item.memory} has its history`);
    const found = await memory.search(item.memory, { ...alice, limit: 3 });
    assert.ok(found.results.some((hit) => hit.id === item.id), `${item.memory} is found by search`);
  }
  memory.close();
  const db = rawDatabase(path);
  assert.equal(db.pragma("integrity_check"), "ok");
  assert.equal(db.get("SELECT count(*) AS n FROM memories").n, all.length, "the index equals the file");
  assert.equal(db.get("SELECT count(*) AS n FROM history").n, all.length);
  assert.equal(db.get("SELECT count(*) AS n FROM memories WHERE vector IS NULL").n, 0);
  db.close();
});

test("a file this process may not write is STORAGE_UNAVAILABLE, and its memories stay", T, async () => {
  const path = newFile();
  const memory = await Memory.open(testConfig(server, { storage: sqliteStorage(path) }));
  await seed(memory, server, ["Likes tea", "Reads poetry"], alice);
  memory.close();
  chmodSync(path, 0o444);
  chmodSync(dirname(path), 0o755);
  // Root may write any file: then the child runs as `nobody`, for whom the file is read-only.
  const asUser = process.getuid?.() === 0 ? { uid: 65534, gid: 65534 } : {};
  try {
    const { lines } = await runChild(path, "open-only", undefined, asUser);
    assert.match(lines[0] ?? "", /^failed STORAGE_UNAVAILABLE .*cannot be written/, lines.join("\n"));
  } finally {
    chmodSync(path, 0o644);
  }
  const again = await Memory.open(testConfig(server, { storage: sqliteStorage(path) }));
  assert.deepEqual((await again.getAll(alice)).results.map((m) => m.memory).sort(), ["Likes tea", "Reads poetry"]);
  again.close();
});

test("another process opening a file in use gets STORAGE_UNAVAILABLE, and can open it once it is closed", T, async () => {
  const path = newFile();
  const memory = await Memory.open(testConfig(server, { storage: sqliteStorage(path) }));
  await seed(memory, server, ["Likes tea"], alice);
  const { lines } = await runChild(path, "open-only");
  assert.match(lines[0] ?? "", /^failed STORAGE_UNAVAILABLE .*holds the database file/, lines.join("\n"));
  assert.equal((await memory.getAll(alice)).results.length, 1, "the first process goes on");
  memory.close();
  assert.deepEqual((await runChild(path, "open-only")).lines, ["opened"]);
});
