// withMemory / memoryMiddleware with the real AI SDK: recall()'s <memory> block reaches the model's system
// prompt, addAfter keeps the exchange, and streamText works with the tools and the middleware together.
import { test } from "node:test";
import assert from "node:assert/strict";
import { generateText, stepCountIs, streamText, wrapLanguageModel } from "ai";
import { MockLanguageModelV3, MockLanguageModelV4 } from "ai/test";
import { memoryMiddleware, memoryTools, withMemory } from "memwasm/ai";
import { addRules, answer, callTool, makeMemory, memoryTexts, scriptedServer, streamed, T } from "./helpers.mjs";

const server = scriptedServer();
const alice = { userId: "alice" };
const code = (c) => (e) => e.code === c;

async function seeded() {
  const memory = makeMemory(server);
  await memory.add("User is vegetarian", { ...alice, infer: false });
  await memory.add("Bob likes steak", { userId: "bob", infer: false });
  return memory;
}

test("withMemory: the recalled memories head the system prompt the model receives", T, async () => {
  const memory = await seeded();
  const model = new MockLanguageModelV4({ doGenerate: answer("Try a mushroom risotto.") });
  const result = await generateText({
    model: withMemory(model, memory, alice),
    system: "You are a cooking assistant.",
    prompt: "What should I cook tonight? I am vegetarian.",
  });
  assert.equal(result.text, "Try a mushroom risotto.");
  const [system, ...rest] = model.doGenerateCalls[0].prompt;
  assert.equal(system.role, "system");
  assert.match(system.content, /<memory>\n\[SEMANTIC\] User is vegetarian\n<\/memory>\n\nYou are a cooking assistant\.$/);
  assert.doesNotMatch(system.content, /steak/); // another scope's memories stay out
  assert.equal(rest.filter((m) => m.role === "system").length, 0);
  // recall() searched with the user's message.
  assert.ok(server.requests("embedding").some((r) => JSON.stringify(r.body.input).includes("What should I cook tonight")));
});

test("memoryMiddleware: a system message is added when there is none; nothing recalled leaves the prompt", T, async () => {
  const memory = await seeded();
  const model = new MockLanguageModelV4({ doGenerate: answer("ok") });
  const wrapped = wrapLanguageModel({ model, middleware: memoryMiddleware(memory, alice, { preamble: "" }) });
  await generateText({ model: wrapped, prompt: "vegetarian dinner ideas?" });
  const first = model.doGenerateCalls[0].prompt;
  assert.deepEqual(first[0], { role: "system", content: "<memory>\n[SEMANTIC] User is vegetarian\n</memory>" });

  const empty = makeMemory(server);
  const bare = new MockLanguageModelV4({ doGenerate: answer("ok") });
  await generateText({ model: withMemory(bare, empty, alice), prompt: "hello" });
  assert.deepEqual(bare.doGenerateCalls[0].prompt.map((m) => m.role), ["user"]);
});

test("withMemory wraps a LanguageModelV3 (providers written for ai 6) too", T, async () => {
  const memory = await seeded();
  const model = new MockLanguageModelV3({ doGenerate: answer("ok") });
  const result = await generateText({ model: withMemory(model, memory, alice), prompt: "vegetarian dinner?" });
  assert.equal(result.text, "ok");
  assert.match(model.doGenerateCalls[0].prompt[0].content, /\[SEMANTIC\] User is vegetarian/);
});

test("addAfter: the answered exchange is added to memory after the call", T, async () => {
  const memory = makeMemory(server);
  server.script(addRules("I adopted a cat called Miso", ["User has a cat called Miso"]));
  const model = new MockLanguageModelV4({ doGenerate: answer("Congratulations on Miso!") });
  await generateText({ model: withMemory(model, memory, alice, { addAfter: true }), prompt: "I adopted a cat called Miso." });
  await memory.idle();
  assert.deepEqual(await memoryTexts(memory, alice), ["User has a cat called Miso"]);
});

test("streamText: tools and the middleware together; a tool-calling step is not kept, the answer is", T, async () => {
  const memory = await seeded();
  server.script(addRules("Recommend a vegetarian lasagna", ["User wants vegetarian recipes"]));
  const model = new MockLanguageModelV4({
    doStream: [
      streamed(callTool("searchMemories", { query: "diet" })),
      streamed(answer("Recommend a vegetarian lasagna.")),
    ],
  });
  const result = streamText({
    model: withMemory(model, memory, alice, { addAfter: true }),
    tools: memoryTools(memory, alice),
    prompt: "Dinner idea please, given my diet?",
    stopWhen: stepCountIs(3),
  });
  let text = "";
  for await (const delta of result.textStream) text += delta;
  assert.equal(text, "Recommend a vegetarian lasagna.");
  const [step1] = await result.steps;
  assert.equal(step1.toolResults[0].output.results[0].memory, "User is vegetarian");
  for (const call of model.doStreamCalls) assert.match(call.prompt[0].content, /\[SEMANTIC\] User is vegetarian/);
  await memory.idle();
  assert.deepEqual(await memoryTexts(memory, alice), ["User is vegetarian", "User wants vegetarian recipes"]);
  const extractions = server.requests("chat").filter((r) => JSON.stringify(r.body).includes("expert at extracting"));
  assert.equal(extractions.length, 1); // one flush: the answer, not the tool-calling step
});

test("a failed recall rejects the call with its code, or goes to onError and the call goes on", T, async () => {
  const memory = await seeded();
  const model = new MockLanguageModelV4({ doGenerate: answer("ok") });
  await assert.rejects(
    generateText({ model: withMemory(model, memory, alice, { tokenBudget: -1 }), prompt: "hi" }),
    code("INVALID_INPUT"),
  );
  const seen = [];
  const result = await generateText({
    model: withMemory(model, memory, alice, { tokenBudget: -1, onError: (e) => seen.push(e.code) }),
    prompt: "hi",
  });
  assert.equal(result.text, "ok");
  assert.deepEqual(seen, ["INVALID_INPUT"]);
});

test("bad arguments throw coded errors at once", T, () => {
  const memory = makeMemory(server);
  const model = new MockLanguageModelV4({ doGenerate: answer("ok") });
  assert.throws(() => memoryMiddleware(memory, {}), code("SCOPE_REQUIRED"));
  assert.throws(() => memoryMiddleware(memory, null), code("SCOPE_REQUIRED"));
  assert.throws(() => memoryMiddleware(null, alice), code("INVALID_INPUT"));
  assert.throws(() => memoryMiddleware(memory, alice, { budget: 5 }), code("INVALID_INPUT"));
  assert.throws(() => memoryMiddleware(memory, alice, { addAfter: "yes" }), code("INVALID_INPUT"));
  assert.throws(() => withMemory(undefined, memory, alice), code("INVALID_INPUT"));
  assert.throws(() => withMemory(model, memory, { userId: "" }), code("SCOPE_REQUIRED"));
});
