// memwasm/openai-agents with the real @openai/agents: `run(agent, input, {session})` with a scripted model keeps
// the session's items for the next run, tool calls and their results exactly; enough turns overflow the window,
// whose oldest turns are summarised (one scripted summary call) and extracted into memories.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { Agent, run, tool } from "@openai/agents";
import { z } from "zod";
import { MemwasmSession } from "memwasm/openai-agents";
import { DECIDE, EXTRACT, SUMMARY, T, ScriptedModel, chatCalls, makeMemory, said, scriptedServer } from "./helpers.mjs";

const server = scriptedServer();
const agentWith = (model, tools = []) => new Agent({ name: "concierge", instructions: "Help the user.", model, tools });

describe("run(agent, input, {session}) with a MemwasmSession", () => {
  test("the second run's model input carries the first run's items, and getItems has both runs", T, async () => {
    const memory = makeMemory(server);
    const session = new MemwasmSession(memory, { userId: "alice", sessionId: "chat-1", maxTokens: 2000 });
    const model = new ScriptedModel(["Nice to meet you, Alice.", "You live in Lisbon."]);
    const agent = agentWith(model);

    const first = await run(agent, "Hi, I am Alice and I live in Lisbon.", { session });
    assert.equal(first.finalOutput, "Nice to meet you, Alice.");
    const kept = await session.getItems();
    assert.equal(kept.length, 2);
    assert.equal(kept[0].role, "user");
    assert.deepEqual(kept[1], said("Nice to meet you, Alice.", "msg_1"));

    await run(agent, "Where do I live?", { session });
    assert.deepEqual(model.inputs[1].slice(0, 2), kept, "the first run's items, exactly, before the new input");
    assert.equal(model.inputs[1][2].content, "Where do I live?");
    const all = await session.getItems();
    assert.equal(all.length, 4);
    assert.deepEqual(all.at(-1), said("You live in Lisbon.", "msg_2"));
    assert.equal(await session.getSessionId(), "chat-1");
    assert.equal(server.count("chat"), 0, "nothing overflowed: no summary, no extraction");
  });

  test("tool calls and their results round-trip exactly through getItems into the next run", T, async () => {
    const memory = makeMemory(server);
    const session = new MemwasmSession(memory, { userId: "alice", maxTokens: 2000 });
    const call = {
      type: "function_call", id: "fc_1", callId: "call_1", name: "weather", status: "completed",
      arguments: JSON.stringify({ city: "Lisbon" }), providerData: { nested: { raw: [1, 2, { x: null }] } },
    };
    const model = new ScriptedModel([[call], "Sunny in Lisbon.", "You asked about Lisbon."]);
    const weather = tool({
      name: "weather", description: "The weather in a city", parameters: z.object({ city: z.string() }),
      execute: async ({ city }) => `sunny in ${city}`,
    });
    const agent = agentWith(model, [weather]);
    const given = [];
    const addItems = session.addItems.bind(session);
    session.addItems = (items) => given.push(...structuredClone(items)) && addItems(items);

    await run(agent, "Weather in Lisbon?", { session });
    const items = await session.getItems();
    assert.deepEqual(items.map((i) => i.type), ["message", "function_call", "function_call_result", "message"]);
    assert.deepEqual(items, given, "every item as the SDK gave it to addItems");
    assert.deepEqual(items[1].providerData, call.providerData);
    assert.equal(items[2].callId, "call_1");
    assert.equal(items[2].output.text, "sunny in Lisbon");

    await run(agent, "Which city did I ask about?", { session });
    assert.deepEqual(model.inputs[2].slice(0, 4), items, "every item of the first run, exactly");
  });

  test("enough turns overflow the window: the oldest are summarised, extracted into a memory, and leave the session", T, async () => {
    server.script({ kind: "chat", match: [SUMMARY], reply: "Alice lives in Lisbon and plans a trip to Porto." });
    server.script({ kind: "chat", match: [EXTRACT], reply: { facts: ["Lives in Lisbon"] } });
    server.script({ kind: "chat", match: [DECIDE], reply: { memory: [{ text: "Lives in Lisbon", event: "ADD" }] } });
    const memory = makeMemory(server);
    const session = new MemwasmSession(memory, { userId: "alice", sessionId: "trip", maxTokens: 120, keepLast: 2 });
    const replies = Array.from({ length: 8 }, (_, i) => `Noted, answer number ${i} about your Porto trip plans.`);
    const model = new ScriptedModel(replies);
    const agent = agentWith(model);

    await run(agent, "I live in Lisbon.", { session });
    for (let i = 1; i < 8 && chatCalls(server, SUMMARY).length === 0; i++) {
      await run(agent, `Question ${i}: what should I see in Porto on day ${i}?`, { session });
    }
    assert.equal(chatCalls(server, SUMMARY).length, 1, "one summary call when the window overflowed");
    assert.match(chatCalls(server, SUMMARY)[0].body.messages[1].content, /I live in Lisbon/, "the turns leaving it");

    const items = await session.getItems();
    assert.equal(items[0].role, "system");
    assert.equal(items[0].content, "Summary of the conversation so far:\nAlice lives in Lisbon and plans a trip to Porto.");
    assert.ok(!JSON.stringify(items).includes("I live in Lisbon."), "the folded turns left the session");
    assert.ok(items.length <= 3, `summary + at most keepLast turns: ${items.length}`);

    await run(agent, "And on the last day?", { session });
    assert.deepEqual(model.inputs.at(-1)[0], items[0], "the next run's input opens with the summary");

    await memory.idle();
    const extraction = chatCalls(server, EXTRACT);
    assert.equal(extraction.length, 1, "the folded turns went to one extraction");
    assert.match(JSON.stringify(extraction[0].body.messages), /I live in Lisbon/);
    const { results } = await memory.getAll({ userId: "alice" });
    assert.deepEqual(results.map((m) => m.memory), ["Lives in Lisbon"], "a memory in the session's scope");
  });

  test("a failed summary call rejects addItems with the model's code and keeps the session as it was", T, async () => {
    server.script({ kind: "chat", match: [SUMMARY], status: 400, message: "bad request" });
    const memory = makeMemory(server, { retry: { maxRetries: 0 } });
    const session = new MemwasmSession(memory, { userId: "alice", maxTokens: 20, keepLast: 1 });
    await session.addItems([{ role: "user", content: "first turn about Lisbon" }]);
    const before = await session.getItems();
    await assert.rejects(
      session.addItems([{ role: "user", content: "second turn that overflows the small window" }]),
      (error) => error.name === "LLMError" && error.code === "LLM_HTTP" && error.status === 400,
    );
    assert.deepEqual(await session.getItems(), before);
  });
});
