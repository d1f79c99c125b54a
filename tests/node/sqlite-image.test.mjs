// The SQLite store's open image: opening reads one image and the journal of rows changed since, and ends
// with exactly what reading every row gives (same memories, order, vectors, search results); a write too
// large for a journal (an import) has a fresh image written soon after it. A torn, altered
// or foreign image is warned about and rebuilt from the rows; a writer killed while writing the image
// leaves a file that opens to what the rows say; a file of the previous schema is migrated.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Memory, T } from "./helpers.mjs";
import { DRIVERS, databaseFolder, rawDatabase } from "./sqlite-support.mjs";
import { imageConfig, textVector } from "./sqlite-image.support.mjs";

const newFile = databaseFolder();
const CHILD = fileURLToPath(new URL("./sqlite-image.child.mjs", import.meta.url));
const alice = { userId: "alice" };

/** Runs `work` with console.warn collected; resolves with [its result, the warnings]. */
async function warnings(work) {
  const said = [];
  const warn = console.warn;
  console.warn = (...args) => said.push(args.join(" "));
  try {
    return [await work(), said];
  } finally {
    console.warn = warn;
  }
}

/** Everything a reader can see: every memory of the file, in order, with vectors, and a search. */
async function state(memory) {
  const exported = await memory.exportMemories({});
  const found = await memory.search({ embedding: textVector("note 5 about topic 5") }, { ...alice, limit: 5 });
  return { exported: exported.split("\n").filter((line) => !line.includes('"exportedAt"')), found: found.results.map((r) => [r.id, r.score]) };
}

/** The image of the file at `path`, its parts joined (the memory must be closed): `{seq, bytes, parts}` or
 * undefined. */
function imageRow(path) {
  const db = rawDatabase(path);
  try {
    const parts = db.all("SELECT seq, bytes FROM image ORDER BY part");
    return parts.length ? { seq: parts[0].seq, bytes: Buffer.concat(parts.map((p) => p.bytes)), parts: parts.length } : undefined;
  } finally {
    db.close();
  }
}

/** Stores `bytes` as the image of the file at `path`, in one part, keeping its sequence. */
function storeImage(path, bytes) {
  const { seq } = imageRow(path);
  sql(path, "DELETE FROM image");
  sql(path, "INSERT INTO image (part, seq, bytes) VALUES (0, ?, ?)", seq, bytes);
}

function sql(path, text, ...params) {
  const db = rawDatabase(path);
  try {
    return db.run(text, ...params);
  } finally {
    db.close();
  }
}

/** A memory on `path` with `n` notes of alice added. (A new file's first open writes the image of an empty
 * store; with more than 256 changes after it, the next open folds them into a fresh image.) */
async function seeded(path, driver, n = 300) {
  const memory = await Memory.open(imageConfig(path, driver));
  for (let i = 0; i < n; i++) await memory.add(`note ${i} about topic ${i}`, { ...alice, infer: false, metadata: { i } });
  return memory;
}

for (const driver of DRIVERS) {
  describe(`the open image, through ${driver}`, () => {
    const open = (path) => Memory.open(imageConfig(path, driver));

    test("is written when the memory closes, and a reopen reads it with the journal of later changes", T, async () => {
      const path = newFile();
      let memory = await seeded(path, driver);
      memory.close();
      // This open folds the 300 changes since the (empty) first image into a fresh one, written on close.
      memory = await open(path);
      const first = await state(memory);
      memory.close();
      const image = imageRow(path);
      assert.ok(image && image.bytes.length > 300 * 8 * 4, "an image of every memory is stored");

      memory = await open(path);
      assert.deepEqual(await state(memory), first);
      const all = (await memory.getAll({ ...alice, limit: 100 })).results;
      await memory.update(all[3].id, "note 3, rewritten");
      await memory.delete(all[7].id);
      await memory.add("a new note after the image", { ...alice, infer: false });
      await memory.update(all[9].id, "note 9, rewritten");
      const changed = await state(memory);
      memory.close();
      assert.equal(imageRow(path).seq, image.seq, "a small journal leaves the image as it is");

      memory = await open(path);
      assert.deepEqual(await state(memory), changed, "image + journal = the rows");
      memory.close();
      // The image is what was read: a row altered behind memwasm's back without a new change number is not
      // seen until its change number says it changed.
      sql(path, "UPDATE memories SET record = replace(record, 'note 2 about', 'NOTE 2 ABOUT') WHERE record LIKE '%note 2 about%'");
      memory = await open(path);
      assert.ok((await memory.getAll(alice)).results.some((m) => m.memory === "note 2 about topic 2"));
      memory.close();
      sql(path, "UPDATE memories SET changed = (SELECT max(changed) FROM memories) + 1 WHERE record LIKE '%NOTE 2 ABOUT%'");
      memory = await open(path);
      assert.ok((await memory.getAll(alice)).results.some((m) => m.memory === "NOTE 2 ABOUT topic 2"));
      memory.close();
    });

    test("memories read from the image with the same metadata are changed one at a time", T, async () => {
      // Records of one metadata text share one parsed object after an image is read: a change to one
      // memory's metadata must reach that memory only, now and after a reopen.
      const path = newFile();
      let memory = await Memory.open(imageConfig(path, driver));
      const shared = { source: "chat", role: "user" };
      for (let i = 0; i < 300; i++) await memory.add(`note ${i} about topic ${i}`, { ...alice, infer: false, metadata: shared });
      memory.close();
      memory = await open(path); // folds the 300 changes into a fresh image, written on close
      memory.close();
      assert.ok(imageRow(path), "the file has an image");
      memory = await open(path);
      const all = (await memory.getAll({ ...alice, limit: 300 })).results;
      assert.equal(all.length, 300);
      await memory.update(all[4].id, { metadata: { role: "assistant", tag: "moved" } });
      const after = new Map((await memory.getAll({ ...alice, limit: 300 })).results.map((m) => [m.id, m.metadata]));
      assert.deepEqual(after.get(all[4].id), { source: "chat", role: "assistant", tag: "moved" });
      for (const m of all.filter((_, at) => at !== 4)) assert.deepEqual(after.get(m.id), shared, m.memory);
      const found = (await memory.search({ embedding: textVector("note 4 about topic 4") }, { ...alice, limit: 3 })).results;
      for (const m of found) assert.deepEqual(m.metadata, m.id === all[4].id ? after.get(all[4].id) : shared);
      memory.close();
      memory = await open(path);
      assert.deepEqual((await memory.get(all[4].id)).metadata, { source: "chat", role: "assistant", tag: "moved" });
      assert.deepEqual((await memory.get(all[3].id)).metadata, shared);
      memory.close();
    });

    test("a torn, altered or foreign image is warned about, not used, and rebuilt from the rows", T, async () => {
      const path = newFile();
      let memory = await seeded(path, driver);
      const expected = await state(memory);
      memory.close();
      (await open(path)).close(); // writes the image
      const { bytes } = imageRow(path);
      // The writer's version text follows the magic, the format and its length (bytes 0–11).
      const foreign = Buffer.from(bytes);
      foreign[12] = "9".charCodeAt(0);
      const altered = Buffer.from(bytes);
      altered[altered.length - 100] ^= 1;
      for (const [name, broken, why] of [["torn", bytes.subarray(0, bytes.length >> 1), /checksum|cut short/],
        ["altered", altered, /checksum/], ["foreign", foreign, /written by memwasm 9/]]) {
        storeImage(path, broken);
        const [reopened, said] = await warnings(() => open(path));
        assert.ok(said.some((w) => w.includes("open image is not used") && why.test(w)), `${name}: ${said.join("\n")}`);
        assert.deepEqual(await state(reopened), expected, `${name}: the rows are read`);
        reopened.close();
        assert.deepEqual(Buffer.from(imageRow(path).bytes), Buffer.from(bytes), `${name}: a fresh image is written`);
        const [again, quiet] = await warnings(() => open(path));
        assert.deepEqual(quiet, [], `${name}: the fresh image is used`);
        again.close();
      }
    });

    test("a large journal is folded into a fresh image at the next open", T, async () => {
      const path = newFile();
      let memory = await seeded(path, driver, 10);
      memory.close();
      (await open(path)).close();
      const before = imageRow(path).seq;
      memory = await seeded(path, driver, 300);
      const expected = await state(memory);
      memory.close();
      memory = await open(path);
      assert.deepEqual(await state(memory), expected);
      memory.close();
      assert.ok(imageRow(path).seq > before, "the image now covers the journal");
      const db = rawDatabase(path);
      assert.equal(db.get("SELECT count(*) AS n FROM gone WHERE changed <= ?", imageRow(path).seq)?.n ?? 0, 0);
      db.close();
    });

    test("an import larger than a journal may hold has a fresh image written soon after (on close at the latest), not at the next open", T, async () => {
      const source = await seeded(newFile(), driver, 300);
      const backup = await source.exportMemories({});
      source.close();
      const path = newFile();
      let memory = await seeded(path, driver, 10);
      memory.close();
      (await open(path)).close();
      const before = imageRow(path).seq;
      memory = await open(path);
      await memory.importMemories(backup);
      const expected = await state(memory);
      memory.close(); // the file is locked while the memory is open
      const written = imageRow(path);
      assert.ok(written.seq > before, `the image covers the import (${written.seq} > ${before})`);
      const db = rawDatabase(path);
      assert.equal(db.get("SELECT count(*) AS n FROM memories WHERE changed > ?", written.seq).n, 0, "no journal left");
      db.close();
      const [reopened, said] = await warnings(() => open(path));
      assert.deepEqual(said, []);
      assert.deepEqual(await state(reopened), expected);
      reopened.close();
    });

    test("deleteAll and reset leave no image that brings memories back", T, async () => {
      const path = newFile();
      let memory = await seeded(path, driver, 5);
      memory.close();
      (await open(path)).close();
      memory = await open(path);
      await memory.reset();
      memory.close();
      memory = await open(path);
      assert.deepEqual((await memory.getAll(alice)).results, []);
      memory.close();
    });

    test("a file of schema version 1 is migrated and opens with its memories", T, async () => {
      const path = newFile();
      let memory = await seeded(path, driver, 6);
      const expected = await state(memory);
      memory.close();
      const db = rawDatabase(path);
      db.exec("DROP TABLE image; DROP TABLE gone; DROP INDEX memories_by_change; ALTER TABLE memories DROP COLUMN changed; PRAGMA user_version = 1");
      db.close();
      memory = await open(path);
      assert.deepEqual(await state(memory), expected);
      await memory.add("written after the migration", { ...alice, infer: false });
      memory.close();
      memory = await open(path);
      assert.equal((await memory.getAll(alice)).results.length, 7);
      memory.close();
      assert.equal(rawDatabase(path).pragma("user_version"), 2);
    });
  });
}

test("a process killed while it writes the image leaves a file that opens to what the rows say", T, async () => {
  const path = newFile();
  const memory = await seeded(path, undefined, 2000);
  const expected = await state(memory);
  memory.close();
  let killed = 0;
  for (const delayMs of [0, 1, 2, 4, 6, 9, 13, 20]) {
    const child = spawn(process.execPath, [CHILD, path], { stdio: ["ignore", "pipe", "inherit"] });
    let out = "";
    const closed = new Promise((resolve) => child.on("close", (code, signal) => resolve(signal)));
    child.stdout.on("data", (chunk) => {
      out += chunk;
      if (out.includes("opened") && !child.killedAt) {
        child.killedAt = setTimeout(() => child.kill("SIGKILL"), delayMs);
      }
    });
    if ((await closed) === "SIGKILL") killed++;
    const reopened = await Memory.open(imageConfig(path));
    assert.deepEqual(await state(reopened), expected, `killed ${delayMs} ms after opening`);
    // This open used a whole image, or read the rows and wrote one: either way the same. Without an image,
    // the next child reads the rows and writes the image again.
    reopened.close();
    sql(path, "DELETE FROM image");
    sql(path, "DELETE FROM image");
  }
  assert.ok(killed > 0, "at least one child was killed before it finished");
  // An image of several parts that lost its last one is torn: warned about, rebuilt, the same memories.
  (await Memory.open(imageConfig(path))).close();
  const { parts } = imageRow(path);
  assert.ok(parts >= 2, `the image of 2000 memories has ${parts} parts`);
  sql(path, "DELETE FROM image WHERE part = ?", parts - 1);
  const [reopened, said] = await warnings(() => Memory.open(imageConfig(path)));
  assert.ok(said.some((w) => w.includes("open image is not used")), said.join("\n"));
  assert.deepEqual(await state(reopened), expected);
  reopened.close();
  const db = rawDatabase(path);
  assert.equal(db.pragma("integrity_check"), "ok");
  db.close();
});

test("an import's fresh image is written without the memory being closed: a process killed 2 s later leaves it", T, async (t) => {
  const source = await seeded(newFile(), undefined, 300);
  const folder = mkdtempSync(join(tmpdir(), "memwasm-backup-"));
  t.after(() => rmSync(folder, { recursive: true, force: true }));
  const backup = join(folder, "backup.jsonl");
  writeFileSync(backup, await source.exportMemories({}));
  source.close();
  const path = newFile();
  (await seeded(path, undefined, 10)).close();
  (await Memory.open(imageConfig(path))).close();
  const before = imageRow(path).seq;
  const child = spawn(process.execPath, [CHILD, path, backup], { stdio: ["ignore", "pipe", "inherit"] });
  let out = "";
  child.stdout.on("data", (chunk) => (out += chunk));
  const signal = await new Promise((resolve) => child.on("close", (code, signal) => resolve(signal)));
  assert.equal(signal, "SIGKILL");
  assert.match(out, /imported/);
  const db = rawDatabase(path);
  const changed = db.get("SELECT max(changed) AS n FROM memories").n;
  db.close();
  assert.ok(imageRow(path).seq > before && imageRow(path).seq >= changed, "the image covers every change of the import");
});

