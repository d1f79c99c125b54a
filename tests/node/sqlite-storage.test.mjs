// SQLite storage in Node, held to the contract IndexedDB keeps in browsers: everything survives reopening
// (memories, vectors and scores, history, lifecycle fields, key/value entries, side records), each call is
// written whole or not at all, bad config and foreign files get coded errors, and nothing stored is lost.
import { describe, test } from "node:test";
import { readFileSync } from "node:fs";
import assert from "node:assert/strict";
import { openSqlite } from "memwasm";
import { Memory, T, scriptedServer, testConfig, seed, rejectsWith, idOf, extraction, decision, addsFor } from "./helpers.mjs";
import { DRIVERS, databaseFolder, rawDatabase, sqliteStorage } from "./sqlite-support.mjs";
import { graphToolCalls } from "../support/graph-reply.mjs";

const server = scriptedServer();
const newFile = databaseFolder();
const alice = { userId: "alice" };
const FACTS = ["Likes hiking in the Alps", "Allergic to peanuts", "Works as a nurse"];

/** Rows of `sql` in the database at `path` (the memory must be closed). */
function rows(path, sql) {
  const db = rawDatabase(path);
  try {
    return db.all(sql);
  } finally {
    db.close();
  }
}

for (const driver of DRIVERS) {
  describe(`SQLite storage through ${driver}`, () => {
    const config = (path, over = {}) => testConfig(server, { storage: sqliteStorage(path, driver), ...over });
    const open = (path, over) => Memory.open(config(path, over));
    /** Closes `memory` and opens its file again. */
    const reopen = async (memory, path, over) => {
      memory.close();
      return open(path, over);
    };

    test("memories, their search scores and history survive reopening", T, async () => {
      const path = newFile();
      let memory = await open(path);
      const added = await seed(memory, server, FACTS, alice);
      const nurse = idOf(added.results, "Works as a nurse");
      await memory.update(nurse, "Works as a head nurse");
      await memory.delete(idOf(added.results, "Allergic to peanuts"));
      const before = await memory.search("hiking mountains", alice);
      const history = await memory.history(nurse);
      memory = await reopen(memory, path);
      assert.deepEqual(await memory.search("hiking mountains", alice), before);
      assert.deepEqual(await memory.history(nurse), history);
      assert.deepEqual(history.map((h) => h.event), ["ADD", "UPDATE"]);
      const kept = (await memory.getAll(alice)).results.map((m) => m.memory).sort();
      assert.deepEqual(kept, ["Likes hiking in the Alps", "Works as a head nurse"]);
      memory.close();
      const stored = rows(path, "SELECT id, length(vector) AS bytes FROM memories ORDER BY rowid");
      assert.deepEqual(stored.map((r) => r.bytes), [64 * 4, 64 * 4], "vectors are stored as f32 bytes");
    });

    test("deleteAll and reset persist", T, async () => {
      const path = newFile();
      let memory = await open(path);
      await seed(memory, server, FACTS, alice);
      await seed(memory, server, ["Plays chess"], { userId: "bob" });
      await memory.deleteAll(alice);
      memory = await reopen(memory, path);
      assert.deepEqual((await memory.getAll(alice)).results, []);
      assert.deepEqual((await memory.getAll({ userId: "bob" })).results.map((m) => m.memory), ["Plays chess"]);
      await memory.reset();
      memory = await reopen(memory, path);
      assert.deepEqual((await memory.getAll({ userId: "bob" })).results, []);
      memory.close();
      assert.equal(rows(path, "SELECT count(*) AS n FROM history")[0].n, 0);
    });

    test("export, reset and import round-trip exactly; a bad line writes nothing", T, async () => {
      const path = newFile();
      let memory = await open(path);
      await seed(memory, server, FACTS, alice);
      const exported = await memory.exportMemories({});
      await memory.reset();
      await memory.importMemories(exported);
      memory = await reopen(memory, path);
      assert.equal(await memory.exportMemories({}), exported);
      await rejectsWith(() => memory.importMemories(`${exported.trim()}\n{"not": "a memory"}\n`), "INVALID_INPUT");
      memory = await reopen(memory, path);
      assert.equal(await memory.exportMemories({}), exported);
      memory.close();
    });

    test("lifecycle fields, key/value entries and conversation settings persist", T, async () => {
      const path = newFile();
      let memory = await open(path);
      const stored = await memory.store("favourite-colour", "green", { ...alice, importance: 0.9, expiresAt: "2999-01-01T00:00:00Z" });
      await memory.pin(stored.id);
      await memory.saveConversationMeta({ version: "1.0.0", scene: "assistant", scene_desc: { description: "Help desk" }, name: "Default config", created_at: "2025-01-01T00:00:00Z" });
      const before = await memory.get(stored.id);
      memory = await reopen(memory, path);
      assert.deepEqual(await memory.get(stored.id), before);
      assert.deepEqual([before.pinned, before.importance, before.key], [true, 0.9, "favourite-colour"]);
      assert.equal((await memory.getByKey("favourite-colour", alice)).memory, "green");
      assert.equal((await memory.getConversationMeta()).name, "Default config");
      memory.close();
      assert.ok(rows(path, "SELECT count(*) AS n FROM side")[0].n >= 1, "conversation settings are a side record");
    });

    test("graph memory's entities and relations survive reopening, and deleting their memory removes them", T, async () => {
      const path = newFile();
      const graph = { graph: { enabled: true } };
      let memory = await open(path, graph);
      const facts = ["Name is Alice", "Works at Google"];
      server.script([
        extraction("Alice works at Google", facts, { times: 1 }),
        decision(facts[0], addsFor(facts), { times: 1 }),
        { kind: "chat", match: ["You extract a knowledge graph"], times: 1,
          body: graphToolCalls([{ name: "alice", type: "person" }, { name: "Google", type: "organization" }],
            [{ source: "Alice", relation: "works_at", target: "Google" }]) },
      ]);
      const added = await memory.add("Alice works at Google", alice);
      const entities = await memory.getEntities(alice);
      memory = await reopen(memory, path, graph);
      assert.deepEqual(await memory.getEntities(alice), entities);
      const triples = (await memory.getRelations("Alice", alice)).results.map((r) => [r.source, r.relation, r.target]);
      assert.deepEqual(triples, [["Alice", "works_at", "Google"]]);
      for (const event of added.results) await memory.delete(event.id);
      memory = await reopen(memory, path, graph);
      assert.deepEqual((await memory.getRelations("Alice", alice)).results, []);
      memory.close();
    });

    test("the file is in WAL mode at the current schema version, and a newer one is refused", T, async () => {
      const path = newFile();
      (await open(path)).close();
      const db = rawDatabase(path);
      assert.equal(db.pragma("journal_mode"), "wal");
      assert.equal(db.pragma("user_version"), 2);
      const tables = db.all("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name");
      assert.deepEqual(tables.map((t) => t.name).filter((n) => !n.startsWith("sqlite_")), ["gone", "graph", "history", "image", "memories", "side"]);
      db.exec("PRAGMA user_version = 3");
      db.close();
      await rejectsWith(() => open(path), "STORAGE", (error) => assert.match(error.message, /newer memwasm/));
    });

    test("a corrupt row is skipped with a warning and left in place", T, async () => {
      const path = newFile();
      let memory = await open(path);
      await seed(memory, server, FACTS, alice);
      memory.close();
      const db = rawDatabase(path);
      db.run("INSERT INTO memories (id, record, vector) VALUES ('broken', '{not json', NULL)");
      db.close();
      const warnings = [];
      const warn = console.warn;
      console.warn = (...args) => warnings.push(args.join(" "));
      try {
        memory = await open(path);
      } finally {
        console.warn = warn;
      }
      assert.equal((await memory.getAll(alice)).results.length, 3);
      assert.ok(warnings.some((w) => w.includes("corrupt row") && w.includes("memories")), warnings.join("\n"));
      memory.close();
      assert.equal(rows(path, "SELECT count(*) AS n FROM memories WHERE id = 'broken'")[0].n, 1);
    });

    test("a full database is STORAGE_QUOTA and keeps nothing of the failed write", T, async () => {
      const path = newFile();
      // The page limit stands in for a full disk: SQLite reports both as SQLITE_FULL.
      const small = async (settings) => {
        const db = await openSqlite(settings);
        db.exec("PRAGMA max_page_count = 24");
        return db;
      };
      const over = { storage: { ...sqliteStorage(path, driver), open: small } };
      let memory = await open(path, over);
      await seed(memory, server, ["Likes tea"], alice);
      const big = "x".repeat(4000);
      let error;
      let stored = 0;
      for (let i = 0; i < 40 && !error; i++, stored++) {
        try {
          await memory.store(`note-${i}`, `${big} ${i}`, alice);
        } catch (caught) {
          error = caught;
        }
      }
      assert.ok(error, "the database never filled up");
      assert.ok(stored >= 2, `only ${stored} stores went in before the database was full`);
      assert.equal(error.code, "STORAGE_QUOTA", error.message);
      assert.match(error.message, /nothing was written/);
      const inRam = (await memory.exportMemories({})).trim().split("\n").length;
      memory = await reopen(memory, path);
      const onDisk = (await memory.exportMemories({})).trim().split("\n").length;
      assert.equal(onDisk, inRam, "what the memory holds is what the file holds");
      assert.equal((await memory.getByKey("note-0", alice)).memory, `${big} 0`);
      await rejectsWith(() => memory.getByKey(`note-${stored}`, alice), "NOT_FOUND");
      memory.close();
    });

    test("a second open of the file is STORAGE_UNAVAILABLE until the first closes", T, async () => {
      const path = newFile();
      const first = await open(path);
      await seed(first, server, ["Likes tea"], alice);
      const busy = { storage: sqliteStorage(path, driver, { busyTimeoutMs: 50 }) };
      await rejectsWith(() => Memory.open(testConfig(server, busy)), "STORAGE_UNAVAILABLE", (error) =>
        assert.match(error.message, /holds the database file/),
      );
      assert.equal((await first.getAll(alice)).results.length, 1, "the first memory goes on");
      first.close();
      await rejectsWith(() => first.store("k", "v", alice), "STORAGE_UNAVAILABLE", (error) => assert.match(error.message, /closed/));
      // A statement run (not only a transaction begun) on the closed file keeps the code the docs promise.
      const [id] = (await first.getAll(alice)).results.map((memory) => memory.id);
      await rejectsWith(() => first.history(id), "STORAGE_UNAVAILABLE", (error) => assert.match(error.message, /closed/));
      await rejectsWith(() => first.add("Likes coffee", { ...alice, infer: false }), "STORAGE_UNAVAILABLE", (error) =>
        assert.match(error.message, /closed/),
      );
      assert.equal((await first.getAll(alice)).results.length, 1, "what was loaded still answers from memory after close()");
      first.free(); // gives the in-memory index back at once (docs/node-storage.md)
      const second = await Memory.open(testConfig(server, busy));
      assert.equal((await second.getAll(alice)).results.length, 1);
      second.close();
    });

    test("config errors name the field; the constructor asks for Memory.open", T, async () => {
      const bad = async (storage, field) =>
        rejectsWith(() => Memory.open(testConfig(server, { storage })), "INVALID_CONFIG", (error) =>
          assert.match(error.message, new RegExp(field.replace(".", "\\."))),
        );
      await bad({ provider: "sqlite" }, "storage.config.path");
      await bad({ provider: "sqlite", config: { path: "" } }, "storage.config.path");
      await bad({ provider: "sqlite", config: { path: newFile(), driver: "sqlite3" } }, "storage.config.driver");
      await bad({ provider: "sqlite", config: { path: newFile(), busyTimeoutMs: -1 } }, "storage.config.busyTimeoutMs");
      await bad({ provider: "sqlite", config: { path: newFile(), dbName: "x" } }, "storage.config");
      assert.throws(() => new Memory(config(newFile())), (error) => error.code === "INVALID_CONFIG" && /Memory\.open/.test(error.message));
      const missing = { provider: "sqlite", config: { path: "/nonexistent-folder/m.db", driver } };
      await rejectsWith(() => Memory.open(testConfig(server, { storage: missing })), "STORAGE_UNAVAILABLE");
    });

    test("a path with NUL or another control character is refused, and the file its prefix names is untouched", T, async () => {
      const victim = newFile();
      let memory = await open(victim);
      await seed(memory, server, ["Keeps a diary"], alice);
      memory.close();
      const before = readFileSync(victim);
      for (const cut of ["\0", "\0.x", "\n", "\r", "\t", "\u001b", "\u0085"]) {
        const path = `${victim}${cut}`;
        await rejectsWith(() => open(path), "INVALID_CONFIG", (error) => {
          assert.match(error.message, /storage\.config\.path/);
          assert.match(error.message, /control character/);
        });
        await rejectsWith(() => openSqlite({ path, driver, busyTimeoutMs: 100 }), "INVALID_CONFIG");
      }
      assert.deepEqual(readFileSync(victim), before, "the file the path's prefix names is neither read nor written");
      memory = await open(victim);
      assert.deepEqual((await memory.getAll(alice)).results.map((m) => m.memory), ["Keeps a diary"]);
      memory.close();
    });
  });
}
