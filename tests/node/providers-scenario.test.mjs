// Every provider runs the same add → search → update → history scenario through the built package,
// against its own wire format on the scripted server (Workers AI through a binding stand-in). Each
// request is checked the way the real API checks it, and each provider's request shape is asserted.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { T, EXTRACT, DECIDE, Memory, extraction, decision, addsFor, scriptedServer } from "./helpers.mjs";
import { PROVIDERS, providerConfig, assertAllValid } from "./provider-configs.mjs";

const server = scriptedServer();

const FACTS = ["User's name is Alice", "User works at Acme Corp as a data scientist"];
const MOVED = "User works at BigTech Inc as a data scientist";
const chats = (prefix) => server.requests("chat").filter((r) => r.system.startsWith(prefix));
const header = (req, name) => req.headers[name];

/** Provider-specific request shapes, beyond "the real API would accept it". */
const CHECKS = {
  openai() {
    for (const req of server.requests("chat")) {
      assert.equal(header(req, "authorization"), "Bearer test-key");
      assert.deepEqual(req.body.response_format, { type: "json_object" });
      assert.equal(req.body.model, "gpt-4o-mini");
    }
    assert.deepEqual(server.requests("embedding")[0].body.input, FACTS);
  },
  azure_openai() {
    for (const req of server.requests()) {
      assert.deepEqual(req.query, { "api-version": "2024-10-21" });
      assert.equal(header(req, "api-key"), "az-key");
      assert.equal(header(req, "authorization"), undefined);
      assert.equal(req.body.model, undefined, "the deployment picks the model");
    }
    assert.ok(server.requests("chat").every((r) => r.path === "/openai/deployments/chat-prod/chat/completions"));
    assert.ok(server.requests("embedding").every((r) => r.path === "/openai/deployments/embed-prod/embeddings"));
    assert.equal(server.requests("embedding")[0].body.dimensions, 64);
  },
  groq() {
    for (const req of server.requests("chat")) {
      assert.equal(header(req, "authorization"), "Bearer gsk-test");
      assert.equal(req.body.model, "llama-3.3-70b-versatile");
      assert.deepEqual(req.body.response_format, { type: "json_object" });
    }
    for (const req of server.requests("embedding")) {
      assert.equal(header(req, "authorization"), undefined, "vLLM without a key gets no auth header");
      assert.equal(req.body.model, "intfloat/e5-small");
    }
  },
  lmstudio() {
    for (const req of server.requests("chat"))
      assert.equal(req.body.response_format, undefined, "JSON mode is off for LM Studio");
  },
  anthropic() {
    for (const req of server.requests("chat")) {
      assert.equal(req.path, "/v1/messages");
      assert.equal(header(req, "x-api-key"), "sk-ant-test");
      assert.equal(header(req, "anthropic-version"), "2023-06-01");
      assert.equal(header(req, "anthropic-dangerous-direct-browser-access"), undefined, "browser access is opt-in");
      assert.equal(header(req, "authorization"), undefined);
      assert.equal(req.body.model, "claude-haiku-4-5");
      assert.ok(req.body.max_tokens > 0);
      assert.deepEqual(
        req.body.messages.map((m) => m.role),
        ["user"],
      );
    }
    const [extract] = chats(EXTRACT);
    assert.equal(extract.body.tools[0].name, "record_facts");
    assert.deepEqual(extract.body.tool_choice, { type: "tool", name: "record_facts" });
    const [decide] = chats(DECIDE);
    assert.equal(decide.body.tools[0].input_schema.properties.memory.type, "array");
    const replies = server.requests("chat").map((r) => JSON.parse(r.reply).content.map((b) => b.type));
    assert.deepEqual(replies, [["tool_use"], ["tool_use"], ["tool_use"], ["tool_use"]], "answers came as tool input");
  },
  gemini() {
    for (const req of server.requests()) {
      assert.equal(header(req, "x-goog-api-key"), "g-key");
      assert.equal(req.query, undefined, "no ?key= in the URL");
    }
    for (const req of server.requests("chat")) {
      assert.equal(req.path, "/v1beta/models/gemini-2.5-flash:generateContent");
      assert.equal(req.body.generationConfig.responseMimeType, "application/json");
      assert.equal(req.body.generationConfig.responseSchema.type, "OBJECT");
      assert.deepEqual(
        req.body.contents.map((c) => c.role),
        ["user"],
      );
    }
    const [batch] = server.requests("embedding");
    assert.equal(batch.path, "/v1beta/models/gemini-embedding-001:batchEmbedContents");
    assert.deepEqual(
      batch.body.requests.map((r) => [r.model, r.content.parts[0].text, r.outputDimensionality]),
      [
        ["models/gemini-embedding-001", FACTS[0], 64],
        ["models/gemini-embedding-001", FACTS[1], 64],
      ],
    );
  },
  ollama() {
    for (const req of server.requests("chat")) {
      assert.equal(req.body.stream, false);
      assert.equal(req.body.format, "json");
      assert.equal(req.body.model, "llama3.1");
      assert.equal(typeof req.body.options.num_predict, "number");
    }
    const [batch] = server.requests("embedding");
    assert.deepEqual([batch.path, batch.body.input, batch.body.dimensions], ["/api/embed", FACTS, 64]);
  },
  "workers-ai"(binding) {
    const chatCalls = binding.calls.filter((c) => c.inputs.messages);
    const embedCalls = binding.calls.filter((c) => c.inputs.text);
    assert.equal(chatCalls.length + embedCalls.length, binding.calls.length);
    for (const { model, inputs } of chatCalls) {
      assert.equal(model, "@cf/meta/llama-3.1-8b-instruct");
      assert.deepEqual(
        inputs.messages.map((m) => m.role),
        ["system", "user"],
      );
      assert.equal(inputs.response_format.type, "json_schema");
      assert.equal(inputs.response_format.json_schema.type, "object");
      assert.ok(inputs.max_tokens > 0);
    }
    assert.ok(embedCalls.every((c) => c.model === "@cf/baai/bge-small-en-v1.5"));
    const [firstBatch] = server.requests("embedding");
    assert.deepEqual(JSON.parse(firstBatch.reply).result.shape, [2, 384]);
    const reply = JSON.parse(server.requests("chat")[0].reply).result.response;
    assert.equal(typeof reply, "object", "JSON mode answers with an object, which the provider reads");
    assert.deepEqual(embedCalls[0].inputs, { text: FACTS });
  },
};

describe("the shared scenario, per provider", () => {
  for (const name of Object.keys(PROVIDERS)) {
    test(`${name}: add, search, update and history end to end`, T, async () => {
      const { config, binding } = providerConfig(name, server, { pipeline: "exact" }); // the wire order below is its
      const mem = new Memory(config);
      server.script([
        extraction("I work at Acme Corp", FACTS, { times: 1 }),
        decision(FACTS, addsFor(FACTS), { times: 1 }),
      ]);
      const conversation = [
        { role: "user", content: "Hi, I'm Alice. I work at Acme Corp as a data scientist." },
        { role: "assistant", content: "Nice to meet you, Alice!" },
      ];
      const added = await mem.add(conversation, { userId: "alice" });
      assert.deepEqual(added.warnings, []);
      assert.deepEqual(
        added.results.map((e) => [e.event, e.memory]),
        FACTS.map((f) => ["ADD", f]),
      );

      const found = await mem.search("Who works at Acme?", { userId: "alice", limit: 2 });
      assert.equal(found.results[0].memory, FACTS[1]);
      assert.ok(found.results[0].score > found.results[1].score);

      server.script([
        extraction("switched jobs", ["User works at BigTech Inc"], { times: 1 }),
        decision("User works at BigTech Inc", [{ id: "0", text: MOVED, event: "UPDATE", old_memory: FACTS[1] }]),
      ]);
      const moved = await mem.add("I just switched jobs. I'm now at BigTech Inc.", { userId: "alice" });
      assert.deepEqual(moved.warnings, []);
      const [update] = moved.results;
      assert.deepEqual([update.event, update.oldMemory, update.newMemory], ["UPDATE", FACTS[1], MOVED]);
      const shown = chats(DECIDE).at(-1).user;
      assert.match(shown, new RegExp(`"id":"0","text":"${FACTS[1]}"`), "temp id 0 was the Acme memory");
      assert.deepEqual(
        (await mem.history(update.id)).map((h) => h.event),
        ["ADD", "UPDATE"],
      );
      assert.deepEqual(
        (await mem.getAll({ userId: "alice" })).results.map((m) => m.memory).sort(),
        [MOVED, FACTS[0]].sort(),
      );

      // 2 LLM calls per add; embeddings: the facts (one batch), the query, the new fact, the rewritten text.
      assert.equal(server.count("chat"), 4);
      assert.equal(server.count("embedding"), 4);
      assert.ok(server.requests("chat").every((r) => r.wire === PROVIDERS[name].chatWire));
      assert.ok(server.requests("embedding").every((r) => r.wire === PROVIDERS[name].embeddingWire));
      assert.ok(server.requests().every((r) => r.status === 200));
      assertAllValid(server);
      CHECKS[name](binding);
    });
  }
});
