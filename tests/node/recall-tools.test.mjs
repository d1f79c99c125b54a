// memory.tools(scope, {format}): definitions for search_memory / manage_memory in OpenAI and Anthropic
// formats, and runTool bound to the scope given to tools(): no call can reach another scope.
import { test } from "node:test";
import assert from "node:assert/strict";
import { T, makeMemory, rejectsWith, scriptedServer } from "./helpers.mjs";

const server = scriptedServer();

async function twoUsers() {
  const memory = makeMemory(server);
  await memory.add("User likes green tea", { userId: "alice", infer: false });
  await memory.add("User lives in Lisbon", { userId: "alice", infer: false });
  const bob = await memory.add("User likes green tea and jasmine", { userId: "bob", infer: false });
  return { memory, bobsId: bob.results[0].id };
}

test("definitions in OpenAI (default) and Anthropic format", T, async () => {
  const memory = makeMemory(server);
  const openai = memory.tools({ userId: "alice" }).definitions;
  assert.deepEqual(openai.map((t) => [t.type, t.function.name]), [["function", "search_memory"], ["function", "manage_memory"]]);
  const [search, manage] = openai.map((t) => t.function.parameters);
  assert.deepEqual(search.required, ["query"]);
  assert.deepEqual(Object.keys(search.properties).sort(), ["limit", "query"]);
  assert.deepEqual(manage.properties.action.enum, ["create", "update", "delete"]);
  assert.deepEqual(Object.keys(manage.properties).sort(), ["action", "content", "id"]);
  assert.ok(openai.every((t) => typeof t.function.description === "string" && t.function.description.length > 20));
  JSON.stringify(openai); // plain JSON, ready for a request body

  const anthropic = memory.tools({ userId: "alice" }, { format: "anthropic" }).definitions;
  assert.deepEqual(anthropic.map((t) => t.name), ["search_memory", "manage_memory"]);
  assert.deepEqual(anthropic[1].input_schema, manage);
  assert.ok(anthropic.every((t) => !("type" in t) && !("function" in t)));
  assert.deepEqual(memory.tools({ userId: "alice", runId: "r1" }).scope, { userId: "alice", runId: "r1" });
});

test("search_memory and manage_memory work inside the bound scope", T, async () => {
  const { memory } = await twoUsers();
  const tools = memory.tools({ userId: "alice" });
  const found = await tools.runTool("search_memory", { query: "green tea", limit: 1 });
  assert.deepEqual(Object.keys(found), ["results"]);
  assert.equal(found.results.length, 1);
  assert.equal(found.results[0].memory, "User likes green tea");
  assert.deepEqual(Object.keys(found.results[0]).sort(), ["id", "memory", "score"]);
  // The model's `arguments` JSON string is accepted as it is.
  const again = await tools.runTool("search_memory", '{"query": "green tea"}');
  assert.deepEqual(again.results.map((r) => r.memory).sort(), ["User likes green tea", "User lives in Lisbon"]);

  const created = await tools.runTool("manage_memory", { action: "create", content: "User is vegetarian" });
  assert.equal(created.event, "ADD");
  assert.equal(created.memory, "User is vegetarian");
  const item = await memory.get(created.id);
  assert.equal(item.userId, "alice");
  const duplicate = await tools.runTool("manage_memory", { action: "create", content: "User is vegetarian" });
  assert.deepEqual(duplicate, { event: "NONE", id: created.id, memory: "User is vegetarian" });

  const updated = await tools.runTool("manage_memory", JSON.stringify({ action: "update", id: created.id, content: "User is vegan" }));
  assert.deepEqual(updated, { event: "UPDATE", id: created.id, memory: "User is vegan" });
  assert.equal((await memory.get(created.id)).memory, "User is vegan");
  assert.deepEqual(await tools.runTool("manage_memory", { action: "delete", id: created.id }), { event: "DELETE", id: created.id });
  assert.equal(await memory.get(created.id), null);
  assert.deepEqual((await memory.history(created.id)).map((h) => h.event), ["ADD", "UPDATE", "DELETE"]);
});

test("a tool call can never reach another scope", T, async () => {
  const { memory, bobsId } = await twoUsers();
  const tools = memory.tools({ userId: "alice" });
  const found = await tools.runTool("search_memory", { query: "green tea jasmine", limit: 50 });
  assert.ok(found.results.every((r) => r.id !== bobsId));
  await rejectsWith(() => tools.runTool("manage_memory", { action: "update", id: bobsId, content: "hijacked" }), "NOT_FOUND");
  await rejectsWith(() => tools.runTool("manage_memory", { action: "delete", id: bobsId }), "NOT_FOUND");
  // Scope fields in the arguments are refused, never obeyed.
  await rejectsWith(() => tools.runTool("manage_memory", { action: "create", content: "x", userId: "bob" }), "INVALID_INPUT");
  await rejectsWith(() => tools.runTool("search_memory", { query: "tea", userId: "bob" }), "INVALID_INPUT");
  assert.equal((await memory.get(bobsId)).memory, "User likes green tea and jasmine");
  assert.equal((await memory.getAll({ userId: "bob" })).results.length, 1);
  // A narrower scope narrows: tools for alice's run r1 do not see her other memories.
  const run = memory.tools({ userId: "alice", runId: "r1" });
  assert.deepEqual((await run.runTool("search_memory", { query: "green tea" })).results, []);
  const [aliceTea] = (await memory.getAll({ userId: "alice" })).results;
  await rejectsWith(() => run.runTool("manage_memory", { action: "delete", id: aliceTea.id }), "NOT_FOUND");
});

test("bad calls reject with a code and store nothing", T, async () => {
  const { memory } = await twoUsers();
  assert.throws(() => memory.tools({}), (e) => e.code === "SCOPE_REQUIRED");
  assert.throws(() => memory.tools(), (e) => e.code === "SCOPE_REQUIRED");
  assert.throws(() => memory.tools({ userId: "alice" }, { format: "gemini" }), (e) => e.code === "INVALID_INPUT");
  const tools = memory.tools({ userId: "alice" });
  for (const [name, args] of [
    ["forget_everything", {}],
    [42, {}],
    ["search_memory", {}],
    ["search_memory", { query: "x", limit: 0 }],
    ["search_memory", { query: "x", limit: 500 }],
    ["search_memory", "{not json"],
    ["manage_memory", { action: "rename" }],
    ["manage_memory", { action: "create" }],
    ["manage_memory", { action: "update", content: "no id" }],
    ["manage_memory", { action: "delete" }],
  ]) {
    await rejectsWith(() => tools.runTool(name, args), "INVALID_INPUT", (e) => assert.ok(e.message.length > 0));
  }
  assert.equal((await memory.getAll({ userId: "alice" })).results.length, 2);
});
