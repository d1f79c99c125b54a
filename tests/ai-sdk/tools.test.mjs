// memoryTools with the real AI SDK: a generateText loop driven by MockLanguageModelV4 calls the tools, the
// memory really changes, and the tool results reach the model.
import { test } from "node:test";
import assert from "node:assert/strict";
import { generateText, stepCountIs } from "ai";
import { MockLanguageModelV4 } from "ai/test";
import { memoryTools, MEMORY_TOOL_NAMES } from "memwasm/ai";
import { addRules, answer, callTool, makeMemory, memoryTexts, scriptedServer, T, toolResults } from "./helpers.mjs";

const server = scriptedServer();
const alice = { userId: "alice" };

test("generateText: the model adds a memory, then finds it with searchMemories", T, async () => {
  const memory = makeMemory(server);
  const model = new MockLanguageModelV4({
    doGenerate: [
      callTool("addMemory", { content: "User is vegetarian" }),
      callTool("searchMemories", { query: "vegetarian diet", limit: 3 }),
      answer("Noted: you are vegetarian."),
    ],
  });
  const result = await generateText({
    model,
    tools: memoryTools(memory, alice),
    prompt: "Remember that I am vegetarian.",
    stopWhen: stepCountIs(5),
  });
  assert.equal(result.text, "Noted: you are vegetarian.");
  assert.deepEqual(await memoryTexts(memory, alice), ["User is vegetarian"]);

  // The model was offered the four tools, with JSON Schemas and descriptions.
  const offered = model.doGenerateCalls[0].tools.map((t) => t.name).sort();
  assert.deepEqual(offered, [...MEMORY_TOOL_NAMES].sort());
  for (const t of model.doGenerateCalls[0].tools) assert.ok(t.description.length > 20 && t.inputSchema.type === "object");

  // Step 2 saw the add's result (with the new id); step 3 saw the search find it.
  const [[name, added]] = toolResults(model.doGenerateCalls[1].prompt);
  assert.equal(name, "addMemory");
  assert.equal(added.results[0].event, "ADD");
  const id = added.results[0].id;
  const found = toolResults(model.doGenerateCalls[2].prompt).find(([n]) => n === "searchMemories")[1];
  assert.equal(found.results[0].id, id);
  assert.equal(found.results[0].memory, "User is vegetarian");
});

test("updateMemory and deleteMemory change the memory by id", T, async () => {
  const memory = makeMemory(server);
  const tools = memoryTools(memory, alice);
  const { results: [{ id }] } = await tools.addMemory.execute({ content: "User lives in Paris" }, { toolCallId: "x", messages: [] });
  const model = new MockLanguageModelV4({
    doGenerate: [callTool("updateMemory", { id, content: "User lives in Lyon" }), answer("Updated.")],
  });
  await generateText({ model, tools, prompt: "I moved to Lyon.", stopWhen: stepCountIs(3) });
  assert.deepEqual(await memoryTexts(memory, alice), ["User lives in Lyon"]);
  assert.equal((await memory.history(id)).at(-1).event, "UPDATE");

  const forget = new MockLanguageModelV4({ doGenerate: [callTool("deleteMemory", { id }), answer("Forgotten.")] });
  const r = await generateText({ model: forget, tools, prompt: "Forget where I live.", stopWhen: stepCountIs(3) });
  assert.deepEqual(r.steps[0].toolResults[0].output, { event: "DELETE", id });
  assert.deepEqual(await memoryTexts(memory, alice), []);
});

test("infer: true runs add(): the memory's LLM extracts the facts", T, async () => {
  const memory = makeMemory(server);
  server.script(addRules("mentioned a dog named Rex", ["User has a dog named Rex"]));
  const model = new MockLanguageModelV4({
    doGenerate: [callTool("addMemory", { content: "The user mentioned a dog named Rex and likes walks." }), answer("ok")],
  });
  const result = await generateText({
    model, tools: memoryTools(memory, alice, { infer: true }), prompt: "My dog Rex…", stopWhen: stepCountIs(3),
  });
  assert.deepEqual(await memoryTexts(memory, alice), ["User has a dog named Rex"]);
  assert.equal(result.steps[0].toolResults[0].output.results[0].event, "ADD");
  assert.equal(result.steps[0].toolResults[0].output.warnings, undefined);

  // An extraction reply that cannot be read stores nothing, and the model is told why.
  server.script({ kind: "chat", match: ["You are an expert at extracting", "likes jazz"], reply: "not json" });
  const tools = memoryTools(memory, alice, { infer: true });
  const out = await tools.addMemory.execute({ content: "User likes jazz" }, { toolCallId: "j", messages: [] });
  assert.deepEqual(out.results, []);
  assert.equal(out.warnings[0].code, "EXTRACTION_FAILED");
});

test("bad tool input comes back to the model as a coded error, and the loop goes on", T, async () => {
  const memory = makeMemory(server);
  const model = new MockLanguageModelV4({
    doGenerate: [
      callTool("searchMemories", { limit: 3 }), // no query
      callTool("searchMemories", { query: "x", limit: 500 }),
      callTool("addMemory", { content: "User likes tea", userId: "bob" }), // cannot name another scope
      callTool("deleteMemory", { id: "no-such-id" }),
      answer("Sorry."),
    ],
  });
  const result = await generateText({ model, tools: memoryTools(memory, alice), prompt: "hi", stopWhen: stepCountIs(6) });
  assert.equal(result.text, "Sorry.");
  const errors = result.steps.slice(0, 4).map((s) => s.toolResults[0].output.error);
  assert.deepEqual(errors.map((e) => e.code), ["INVALID_INPUT", "INVALID_INPUT", "INVALID_INPUT", "NOT_FOUND"]);
  assert.match(errors[0].message, /missing field "query"/);
  assert.match(errors[2].message, /unknown field "userId"/);
  // The model saw each error as the tool's result.
  const seen = toolResults(model.doGenerateCalls[1].prompt)[0][1];
  assert.equal(seen.error.code, "INVALID_INPUT");
  assert.deepEqual(await memoryTexts(memory, alice), []);
  assert.deepEqual(await memoryTexts(memory, { userId: "bob" }), []);
});

test("inputs that are not objects, or carry inherited names, are INVALID_INPUT; unparsable JSON is the SDK's tool-error", T, async () => {
  const memory = makeMemory(server);
  const tools = memoryTools(memory, alice);
  const opts = { toolCallId: "x", messages: [] };
  for (const input of [null, [], "diet", 5, JSON.parse('{"query": "x", "__proto__": {"userId": "bob"}}'), { query: "x", toString: 1 }]) {
    assert.equal((await tools.searchMemories.execute(input, opts)).error.code, "INVALID_INPUT", JSON.stringify(input));
  }
  assert.equal((await tools.addMemory.execute({ content: 42 }, opts)).error.code, "INVALID_INPUT");
  const broken = { ...callTool("addMemory", {}), content: [{ type: "tool-call", toolCallId: "c", toolName: "addMemory", input: "{oops" }] };
  const model = new MockLanguageModelV4({ doGenerate: [broken, answer("ok")] });
  const result = await generateText({ model, tools, prompt: "hi", stopWhen: stepCountIs(3) });
  assert.equal(result.text, "ok");
  assert.equal(result.steps[0].content.find((p) => p.type === "tool-error").toolName, "addMemory");
  assert.deepEqual(await memoryTexts(memory, alice), []);
});

test("an id from another scope is NOT_FOUND: the tools never reach past their scope", T, async () => {
  const memory = makeMemory(server);
  const bob = memoryTools(memory, { userId: "bob" });
  const { results: [{ id }] } = await bob.addMemory.execute({ content: "Bob's secret" }, { toolCallId: "b", messages: [] });
  const tools = memoryTools(memory, alice);
  const opts = { toolCallId: "a", messages: [] };
  assert.equal((await tools.deleteMemory.execute({ id }, opts)).error.code, "NOT_FOUND");
  assert.equal((await tools.updateMemory.execute({ id, content: "hacked" }, opts)).error.code, "NOT_FOUND");
  assert.deepEqual((await tools.searchMemories.execute({ query: "secret" }, opts)).results, []);
  assert.deepEqual(await memoryTexts(memory, { userId: "bob" }), ["Bob's secret"]);
});

test("include picks tools; bad arguments throw coded errors", T, () => {
  const memory = makeMemory(server);
  assert.deepEqual(Object.keys(memoryTools(memory, alice, { include: ["searchMemories"] })), ["searchMemories"]);
  const code = (code) => (e) => e.code === code;
  assert.throws(() => memoryTools(memory, {}), code("SCOPE_REQUIRED"));
  assert.throws(() => memoryTools({}, alice), code("INVALID_INPUT"));
  assert.throws(() => memoryTools(memory, alice, { include: ["nope"] }), code("INVALID_INPUT"));
  assert.throws(() => memoryTools(memory, alice, { infer: "yes" }), code("INVALID_INPUT"));
  assert.throws(() => memoryTools(memory, alice, { extra: 1 }), code("INVALID_INPUT"));
});
