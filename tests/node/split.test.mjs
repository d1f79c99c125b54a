// The browser package's two modules (pkg/split.mjs): a memory starts in the core module, is made by the full
// one when its config needs it, and moves there, with everything it holds, on the first call only the full
// module has. Browsers load the modules with fetch (tests/browser-crash covers that and IndexedDB); here
// both are instantiated from disk, so the same class is tested with the scripted server.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { MemoryError } from "memwasm";
import * as full from "../../pkg/dist/memwasm.js";
import * as core from "../../pkg/dist/core/memwasm.js";
import { Memory as NodeMemory } from "memwasm";
import { FULL_ONLY, METHODS } from "../../pkg/dist/memory-methods.js";
import { splitMemory } from "../../pkg/split.mjs";
import { withSync } from "../../pkg/sync.mjs";
import { withImport } from "../../pkg/import/index.mjs";
import { T, scriptedServer, seed, testConfig, texts } from "./helpers.mjs";

core.initSync({ module: readFileSync(new URL("../../pkg/dist/core/memwasm_bg.wasm", import.meta.url)) });

const server = scriptedServer();
const scope = { userId: "u" };
const PARAGRAPH =
  "The billing service stores invoices in a relational database and mails a receipt to every customer, retrying through a queue when the mail server is down for a while.";

/** A split Memory class whose full module loads `loads.count` times; `failNext` makes the next load fail. */
function split() {
  const loads = { count: 0, failNext: false };
  const Memory = splitMemory(core, async () => {
    loads.count += 1;
    if (loads.failNext) {
      loads.failNext = false;
      throw new Error("offline");
    }
    return full;
  });
  return { Memory, loads };
}

describe("split modules", () => {
  test("the full module has exactly the core's methods and FULL_ONLY", T, () => {
    const names = (Class) => new Set(Object.getOwnPropertyNames(Class.prototype));
    const coreNames = names(core.Memory);
    const extra = [...names(full.Memory)].filter((name) => !coreNames.has(name)).sort();
    assert.deepEqual(extra, [...FULL_ONLY].sort());
    for (const name of coreNames) assert.ok(names(full.Memory).has(name), name);
  });

  test("the generated method lists are the full class's: each method is the core's or in FULL_ONLY", T, () => {
    const publicNames = (Class) =>
      Object.getOwnPropertyNames(Class.prototype).filter((name) => name !== "constructor" && !name.startsWith("__"));
    const coreNames = new Set(publicNames(core.Memory));
    assert.deepEqual([...METHODS].sort(), publicNames(full.Memory).sort(), "METHODS is the full class's, none stale");
    for (const name of METHODS) {
      assert.ok(coreNames.has(name) !== FULL_ONLY.includes(name), `${name}: in the core class or in FULL_ONLY, not both`);
    }
    assert.deepEqual(FULL_ONLY.filter((name) => !METHODS.includes(name)), [], "FULL_ONLY names only full methods");
  });

  test("the browser's Memory has the surface of the Node entry's and of the full module's", T, () => {
    const { Memory } = split();
    const surface = (Class) => {
      const names = new Set();
      for (let proto = Class.prototype; proto && proto !== Object.prototype; proto = Object.getPrototypeOf(proto)) {
        for (const name of Object.getOwnPropertyNames(proto)) {
          if (name !== "constructor" && !name.startsWith("__") && typeof proto[name] === "function") names.add(name);
        }
      }
      const statics = Object.getOwnPropertyNames(Class).filter((name) => typeof Class[name] === "function" && !name.startsWith("__"));
      return { methods: [...names].sort(), statics: statics.sort(), dispose: typeof Class.prototype[Symbol.dispose] };
    };
    assert.deepEqual(surface(Memory), surface(full.Memory));
    // With the package's sync() and importConversations(), as index.browser.mjs exports it (and index.node.mjs the Node one).
    assert.deepEqual(surface(withImport(withSync(Memory))), surface(NodeMemory));
  });

  test("the core module refuses configs for the full one with NOT_IN_MODULE, a shared MemoryError", T, () => {
    const configs = [
      testConfig(server, { graph: { enabled: true } }),
      testConfig(server, { vectorStore: { provider: "chroma", config: { url: "http://127.0.0.1:9", collectionName: "coll" } } }),
      testConfig(server, { storage: { provider: "cloudflare-kv", binding: {} } }),
      testConfig(server, { storage: { provider: "sqlite", config: { path: "m.db" } } }),
      testConfig(server, { observe: () => {} }),
    ];
    for (const config of configs) {
      assert.throws(() => new core.Memory(config), (error) => {
        assert.ok(error instanceof MemoryError, "the same class as the package's (and the full module's)");
        assert.equal(error.code, "NOT_IN_MODULE");
        return true;
      });
    }
    assert.throws(() => new core.Memory(testConfig(server, { llm: { model: 5 } })), { code: "INVALID_CONFIG" });
  });

  test("close() is synchronous in the browser's Memory too, and an in-memory memory goes on after it", T, async () => {
    const { Memory, loads } = split();
    const memory = new Memory(testConfig(server));
    assert.equal(memory.close(), undefined);
    memory.close();
    await memory.add("User likes tea", { ...scope, infer: false });
    assert.deepEqual(texts((await memory.getAll(scope)).results), ["User likes tea"]);
    assert.equal(loads.count, 0, "close() needs no full module");
  });

  test("a memory stays in the core module until a call needs the full one, then keeps everything", T, async () => {
    const { Memory, loads } = split();
    const mem = new Memory(testConfig(server));
    await seed(mem, server, ["Likes green tea", "Plays chess", "Reads novels"], scope);
    const { results } = await mem.getAll(scope);
    await mem.update(results.find((m) => m.memory === "Plays chess").id, "Plays chess on Sundays");
    await mem.delete(results.find((m) => m.memory === "Reads novels").id);
    await mem.store("style", "Prefers short answers", { ...scope, importance: 0.9 });
    const before = await mem.exportMemories({});
    const found = await mem.search("green tea", scope);
    assert.equal(loads.count, 0, "no call so far needed the full module");

    const ingested = await mem.ingest(PARAGRAPH, { ...scope, sessionId: "s1" });
    assert.equal(loads.count, 1);
    assert.equal(ingested.stored, 1);
    const lines = (text) => text.split("\n").filter((line) => line && !line.includes('"kind":"memwasm-export"'));
    const after = lines(await mem.exportMemories({}));
    const added = after.filter((line) => !lines(before).includes(line));
    assert.equal(added.length, 2, "only the ingested memory and its ADD record are new");
    assert.ok(added.every((line) => line.includes("billing") || line.includes('"kind":"history"')), added.join("\n"));
    assert.equal(after.length, lines(before).length + 2, "memories, vectors and history carried over exactly");
    const again = await mem.search("green tea", scope);
    again.results = again.results.filter((hit) => hit.id !== ingested.chunks[0].id);
    again.totalCount -= 1;
    assert.deepEqual(again, found, "the same search results, the ingested memory aside");
    assert.equal((await mem.getByKey("style", scope)).memory, "Prefers short answers");
    assert.equal((await mem.getAll(scope)).results.length, 4, "3 live memories and the ingested one");
    await assert.rejects(mem.getEntities(scope), /graph memory is off/, "the full module answers: no graph configured");
    assert.equal(loads.count, 1, "loaded once");
  });

  test("calls running when the move starts finish first and are carried over", T, async () => {
    const { Memory } = split();
    const mem = new Memory(testConfig(server));
    const stored = mem.store("job", "Works at a bakery", scope);
    const ingest = mem.ingest(PARAGRAPH, { ...scope, sessionId: "s1" });
    const later = mem.store("pet", "Has a cat", scope);
    await Promise.all([stored, ingest, later]);
    const memories = texts((await mem.getAll(scope)).results);
    assert.ok(memories.includes("Works at a bakery") && memories.includes("Has a cat"), JSON.stringify(memories));
    assert.equal(memories.length, 3);
  });

  test("a config that needs the full module makes the memory there", T, async () => {
    const { Memory, loads } = split();
    const mem = new Memory(testConfig(server, { graph: { enabled: true } }));
    assert.equal(loads.count, 1, "started loading at once");
    const tools = mem.tools(scope);
    assert.throws(() => tools.definitions, { code: "NOT_IN_MODULE" }, "nothing to read before the module is there");
    assert.deepEqual((await mem.getEntities(scope)).results, []);
    assert.deepEqual(tools.scope, scope, "readable once the full module made the memory");
    assert.ok(tools.definitions.length >= 2);
    const created = await tools.runTool("manage_memory", { action: "create", content: "User is vegetarian" });
    assert.equal(created.event, "ADD", JSON.stringify(created));
    tools.free();
    const opened = await Memory.open(testConfig(server, { graph: { enabled: true } }));
    assert.deepEqual((await opened.getRelations("Alice", scope)).results, []);
    assert.equal(loads.count, 1, "the loaded module is kept");
  });

  test("listeners, contexts and tools made before the move follow the memory", T, async () => {
    const { Memory } = split();
    const mem = new Memory(testConfig(server));
    const tools = mem.tools(scope);
    assert.deepEqual(tools.scope, scope);
    assert.ok(tools.definitions.length >= 2);
    const context = mem.context({ ...scope, maxTokens: 10_000 });
    const changes = [];
    mem.on("change", (event) => changes.push(event));
    assert.throws(() => mem.on("nope", () => {}), { code: "INVALID_INPUT" });
    assert.throws(() => mem.tools({}), { code: "SCOPE_REQUIRED" });

    await mem.ingest(PARAGRAPH, { ...scope, sessionId: "s1" }); // moves
    const created = await tools.runTool("manage_memory", { action: "create", content: "User is vegetarian" });
    assert.ok(created.id);
    assert.deepEqual(tools.scope, scope, "still readable after the move");
    assert.ok(tools.definitions.length >= 2);
    assert.ok(texts((await mem.getAll(scope)).results).includes("User is vegetarian"), "written into the moved memory");
    const window = await context.push([{ role: "user", content: "hello" }]);
    assert.ok(Array.isArray(window.messages), JSON.stringify(window));

    server.script([
      { kind: "chat", match: ["background turn"], reply: { facts: ["Likes hiking"] } },
      { kind: "chat", match: ["Likes hiking"], reply: { memory: [{ text: "Likes hiking", event: "ADD" }] } },
    ]);
    await mem.flush("background turn", scope);
    await mem.idle();
    assert.equal(changes.length, 1, "the listener was moved with the memory");
    assert.equal(changes[0].results[0].memory, "Likes hiking");
    tools.free();
    context.free();
    mem[Symbol.dispose]();
  });

  test("a full module that fails to load leaves the memory working; the next call loads it", T, async () => {
    const { Memory, loads } = split();
    const mem = new Memory(testConfig(server));
    await mem.store("job", "Works at a bakery", scope);
    loads.failNext = true;
    await assert.rejects(mem.ingest(PARAGRAPH, { ...scope, sessionId: "s1" }), (error) => {
      assert.ok(error instanceof MemoryError, "a coded MemoryError, not the loader's own error");
      assert.equal(error.code, "NOT_IN_MODULE");
      assert.match(error.message, /could not be loaded.*offline/);
      assert.match(String(error.cause?.message), /offline/);
      return true;
    });
    assert.deepEqual(texts((await mem.getAll(scope)).results), ["Works at a bakery"]);
    assert.equal((await mem.ingest(PARAGRAPH, { ...scope, sessionId: "s1" })).stored, 1);
    assert.equal(loads.count, 2);
    assert.equal((await mem.getAll(scope)).results.length, 2);
  });

  test("bad input reaches the caller as the native module's coded error", T, async () => {
    const { Memory } = split();
    assert.throws(() => new Memory(testConfig(server, { llm: { model: 5 } })), { code: "INVALID_CONFIG" });
    const mem = new Memory(testConfig(server));
    await assert.rejects(mem.search("", scope), { code: "INVALID_INPUT" });
    await assert.rejects(mem.ingest("text", {}), { code: "SCOPE_REQUIRED" });
    await assert.rejects(mem.getEntities({}), { code: "SCOPE_REQUIRED" });
  });
});
