// `memwasm/mem0` keeps memories where mem0 keeps them (docs/mem0.md#where-memories-are-kept): mem0's quickstart
// adds in one process and finds in the next; the Memories of one file in one process share it, whatever
// their configs; an explicit `storage` wins; a file of mem0's own is imported, never changed; with no SQLite
// library the memories stay in RAM and a startup warning says so. Every child process and every file lives
// under a temp folder (HOME points there): nothing touches the real ~/.mem0.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { Memory as Mem0Memory } from "memwasm/mem0";
import { Memory } from "memwasm";
import { T, scriptedServer, testConfig, texts } from "./helpers.mjs";
import { homeFolder, jsonLines, mem0Config, realMem0, runNode } from "./mem0-processes.mjs";

const server = scriptedServer();
const ADDITIVE = "You are a memory extractor";
const sha256 = (path) => createHash("sha256").update(readFileSync(path)).digest("hex");
const alice = { filters: { user_id: "alice" } };
/** A config of `memwasm/mem0` (mem0's words) with its memory vector store at `dbPath`. */
const atPath = (dbPath, more = {}) => mem0Config(server, { vectorStore: { provider: "memory", config: { dbPath } }, ...more });

describe("where memwasm/mem0 keeps memories", () => {
  test("mem0's quickstart, import swapped: added in one process, found by search and getAll in the next", T, async () => {
    const home = homeFolder();
    const fact = "User loves sci-fi movies and is not a fan of thrillers";
    const alike = new Array(64).fill(0).map((_, i) => (i % 3 === 0 ? 1 : 0)); // the fact and the query embed alike
    server.script([
      { kind: "chat", match: [ADDITIVE, "sci-fi"], reply: { memory: [{ id: "0", text: fact, attributed_to: "user" }] } },
      { kind: "embedding", match: "sci-fi", vector: alike },
      { kind: "embedding", match: "What do you know about me?", vector: alike },
    ]);
    const env = { HOME: home, OPENAI_API_KEY: "test-key", OPENAI_BASE_URL: server.baseUrl };
    assert.deepEqual(await jsonLines("mem0-quickstart.child.mjs", ["add"], { env }), []);
    assert.ok(existsSync(join(home, ".mem0", "vector_store.db")), "kept where mem0 keeps it: ~/.mem0/vector_store.db");
    const [searched, listed] = await jsonLines("mem0-quickstart.child.mjs", ["search"], { env });
    assert.deepEqual(searched.results.map((m) => [m.memory, m.metadata.category, m.user_id]), [[fact, "movie_recommendations", "alice"]]);
    assert.deepEqual(texts(listed.results), [fact]);
    assert.equal(server.count("chat"), 1, "the second process asked no model to find it");
  });

  test("the Memories of one file share it: first calls at once, another config, each sees the others' writes", T, async () => {
    const file = join(homeFolder(), "shared", "vector_store.db");
    const [a, b] = [new Mem0Memory(atPath(file)), new Mem0Memory(atPath(file))];
    const other = new Mem0Memory(atPath(file, { customInstructions: "Keep facts short." }));
    await Promise.all([
      a.add("User likes tea", { userId: "alice", infer: false }),
      b.add("User plays chess", { userId: "alice", infer: false }),
      b.getAll(alice),
      other.getAll(alice),
    ]);
    for (const memory of [a, b, other]) assert.deepEqual(texts((await memory.getAll(alice)).results), ["User likes tea", "User plays chess"]);
    await other.add("User runs", { userId: "alice", infer: false });
    assert.deepEqual(texts((await a.getAll(alice)).results), ["User likes tea", "User plays chess", "User runs"]);
    assert.equal((await b.search("chess", alice)).results[0]?.memory, "User plays chess");
    for (const memory of [a, b, other]) memory.close();
    await assert.rejects(a.getAll(alice), (e) => e.code === "STORAGE_UNAVAILABLE" && /closed/.test(e.message));
    const reopened = await Memory.open(testConfig(server, { storage: { provider: "sqlite", config: { path: file } } })); // released
    assert.deepEqual(texts((await reopened.getAll({ userId: "alice" })).results), ["User likes tea", "User plays chess", "User runs"]);
    reopened.close();
  });

  test("Memory.open gives it open: the calls that answer at once (context, tools) work then, and before are coded", T, async () => {
    const file = join(homeFolder(), "vector_store.db");
    const waiting = new Mem0Memory(atPath(file));
    assert.throws(() => waiting.tools({ userId: "alice" }), (e) => e.code === "STORAGE_UNAVAILABLE" && /await a call first/.test(e.message));
    const open = await Mem0Memory.open(atPath(file));
    assert.ok(open instanceof Mem0Memory && open instanceof Memory);
    const tools = open.tools({ userId: "alice" });
    await tools.runTool("manage_memory", { action: "create", content: "User likes tea" });
    assert.deepEqual(texts((await waiting.getAll(alice)).results), ["User likes tea"], "the same file, shared");
    assert.ok(waiting.tools({ userId: "alice" }), "open now");
    for (const memory of [waiting, open]) memory.close();
  });

  test("an explicit storage wins; dbPath \":memory:\" keeps memories in RAM, as in mem0", T, async () => {
    const home = homeFolder();
    const [mem0File, ownFile] = [join(home, "mem0.db"), join(home, "own.db")];
    const explicit = new Mem0Memory(atPath(mem0File, { storage: { provider: "sqlite", config: { path: ownFile } } }));
    await explicit.add("User likes tea", { userId: "alice", infer: false });
    explicit.close();
    assert.ok(existsSync(ownFile) && !existsSync(mem0File), "kept in storage.config.path, not in dbPath");
    const inRam = new Mem0Memory(atPath(":memory:"));
    await inRam.add("User likes tea", { userId: "alice", infer: false });
    assert.equal((await new Mem0Memory(atPath(":memory:")).getAll(alice)).results.length, 0, "each in-RAM memory is its own");
  });

  test("mem0's own database is imported beside it, once, and left byte for byte as it was", T, async () => {
    const home = homeFolder();
    const config = mem0Config(server);
    const facts = ["User plays the piano", "User likes green tea", "User has a dog named Rex"];
    const job = { config, adds: facts.map((text, i) => [text, { userId: i < 2 ? "alice" : "bob", infer: false, metadata: { n: i } }]) };
    const { added } = await realMem0(job, home);
    const [vectors, history] = [join(home, ".mem0", "vector_store.db"), join(home, "memory.db")]; // mem0's defaults
    const before = [sha256(vectors), sha256(history)];

    const withHistory = { ...atPath(vectors), historyDbPath: history };
    const memory = new Mem0Memory(withHistory);
    const listed = (await memory.getAll(alice)).results;
    assert.deepEqual(listed.map((m) => [m.id, m.memory, m.metadata.n]).sort(), added.slice(0, 2).map((a, i) => [a.results[0].id, facts[i], i]).sort());
    const trail = await memory.history(added[0].results[0].id);
    assert.deepEqual(trail.map((h) => [h.event, h.oldValue, h.newValue]), [["ADD", null, facts[0]]]);
    const found = await memory.search("piano", alice);
    assert.equal(found.results[0]?.memory, facts[0], "found by its vector, which came with it");
    assert.equal((await memory.getAll({ filters: { user_id: "bob" } })).results.length, 1);
    await memory.add("User sings", { userId: "alice", infer: false });
    memory.close();
    assert.deepEqual([sha256(vectors), sha256(history)], before, "mem0's files are unchanged");
    assert.ok(existsSync(join(home, ".mem0", "vector_store.memwasm.db")));

    const again = new Mem0Memory(withHistory); // imported once: its own file is read from now on
    assert.equal((await again.getAll(alice)).results.length, 3);
    again.close();
  });

  test("mem0's vectors of another length than the embedder's: DIMENSION_MISMATCH naming mem0's file, nothing imported", T, async () => {
    const home = homeFolder();
    await realMem0({ config: mem0Config(server), adds: [["User plays the piano", { userId: "alice", infer: false }]] }, home);
    const vectors = join(home, ".mem0", "vector_store.db");
    const before = sha256(vectors);
    const config = atPath(vectors);
    config.embedder.config.embeddingDims = 32;
    const memory = new Mem0Memory(config);
    await assert.rejects(memory.getAll(alice), (e) => e.code === "DIMENSION_MISMATCH" && e.message.includes(vectors) && /unchanged/.test(e.message));
    assert.equal(sha256(vectors), before);
    assert.ok(!existsSync(join(home, ".mem0", "vector_store.memwasm.db")), "no half-imported file");
  });

  test("a dbPath that names no file is INVALID_CONFIG at new Memory; a file that is no database is refused, unchanged", T, async () => {
    const home = homeFolder();
    for (const dbPath of [join(home, "victim.db\0.x"), 42, { path: "x.db" }]) {
      assert.throws(() => new Mem0Memory(atPath(dbPath)), (e) => e.code === "INVALID_CONFIG" && /vectorStore\.config\.dbPath/.test(e.message));
    }
    assert.ok(!existsSync(join(home, "victim.db")), "nothing made");
    const notes = join(home, "notes.db");
    writeFileSync(notes, "my notes, not a database\n");
    const memory = new Mem0Memory(atPath(notes));
    await assert.rejects(memory.getAll(alice), (e) => /^STORAGE/.test(e.code) && e.message.includes("notes.db"));
    assert.equal(readFileSync(notes, "utf8"), "my notes, not a database\n");
  });

  test("without a SQLite library, memories stay in RAM and a startup warning names the fix", T, async () => {
    const home = homeFolder();
    const dbPath = join(home, "vector_store.db");
    const script = join(home, "app.mjs"); // outside tests/: better-sqlite3 cannot be found from here
    const entry = pathToFileURL(new URL("../../pkg/mem0.node.mjs", import.meta.url).pathname).href;
    writeFileSync(script, `import { Memory } from ${JSON.stringify(entry)};
const memory = new Memory(${JSON.stringify(atPath(dbPath))});
await memory.add("User likes tea", { userId: "alice", infer: false });
console.log(JSON.stringify(await memory.getAll({ filters: { user_id: "alice" } })));`);
    const builtIn = await import("node:sqlite").then(() => true, () => false);
    const env = { HOME: home, ...(builtIn ? { NODE_OPTIONS: "--no-experimental-sqlite" } : {}) };
    const run = await runNode(script, [], { env, cwd: home });
    assert.equal(run.code, 0, run.stderr);
    assert.deepEqual(texts(JSON.parse(run.stdout).results), ["User likes tea"]);
    assert.match(run.stderr, /\[STORAGE_UNAVAILABLE\].*kept in RAM.*npm install better-sqlite3/);
    assert.ok(!existsSync(dbPath));
  });
});
