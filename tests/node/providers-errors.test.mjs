// Failures in each provider's own wire format, through the built package: rate limits with Retry-After,
// error bodies whose message must surface, malformed bodies, and hosts that refuse structured output
// (JSON mode, tools, response schemas) and get prompt-only JSON from then on.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import {
  T,
  EXTRACT,
  DECIDE,
  Memory,
  extraction,
  decision,
  addsFor,
  rejectsWith,
  warningCodes,
  scriptedServer,
} from "./helpers.mjs";
import { PROVIDERS, providerConfig, assertAllValid } from "./provider-configs.mjs";

const server = scriptedServer();

const HTTP = ["openai", "azure_openai", "groq", "anthropic", "gemini", "ollama"];
const chess = () => [
  extraction("I like chess", ["User likes chess"]),
  decision("User likes chess", addsFor(["User likes chess"])),
];
const memory = (name, extra) => new Memory(providerConfig(name, server, extra).config);
const stored = async (mem) => (await mem.getAll({ userId: "u" })).results.map((m) => m.memory);

describe("rate limits and error bodies, per wire format", () => {
  for (const name of HTTP) {
    const { chatWire, embeddingWire } = PROVIDERS[name];

    test(`${name}: 429 with Retry-After is retried after the server's delay`, T, async () => {
      const mem = memory(name, { retry: { baseDelayMs: 5, maxDelayMs: 5000 } });
      server.script([
        { kind: "chat", wire: chatWire, match: EXTRACT, status: 429, headers: { "Retry-After": "0.3" }, times: 1 },
        ...chess(),
      ]);
      const res = await mem.add("I like chess", { userId: "u" });
      assert.deepEqual(res.warnings, []);
      const [limited, retried] = server.requests("chat");
      assert.equal(limited.status, 429);
      assert.ok(retried.time - limited.time >= 280, `waited ${retried.time - limited.time} ms, Retry-After said 300`);
      assert.deepEqual(await stored(mem), ["User likes chess"]);
      assertAllValid(server);
    });

    test(`${name}: the message of the wire's error body surfaces, with the status`, T, async () => {
      const mem = memory(name);
      server.script([
        { kind: "chat", wire: chatWire, match: EXTRACT, status: 401, message: "the key was revoked" },
        { kind: "embedding", wire: embeddingWire, match: "query", status: 403, message: "project lacks access" },
      ]);
      const res = await mem.add("I like chess", { userId: "u" });
      assert.deepEqual(warningCodes(res), ["EXTRACTION_FAILED"]);
      assert.match(res.warnings[0].message, /HTTP 401: the key was revoked/);
      await rejectsWith(
        () => mem.search("query", { userId: "u" }),
        "EMBEDDING_HTTP",
        (e) => {
          assert.equal(e.status, 403);
          assert.match(e.message, /project lacks access/);
        },
      );
      // Each body really was in the wire's shape (the provider found the message inside it).
      const body = JSON.parse(server.requests("chat")[0].reply);
      const shapes = {
        openai: body.error?.type,
        azure: body.error?.code,
        anthropic: body.type,
        gemini: body.error?.status,
        ollama: typeof body.error,
      };
      assert.ok(shapes[chatWire], `unexpected ${chatWire} error body ${JSON.stringify(body)}`);
    });

    test(`${name}: malformed bodies are LLM_RESPONSE / EMBEDDING_RESPONSE`, T, async () => {
      const mem = memory(name);
      server.script([
        { kind: "chat", wire: chatWire, match: EXTRACT, body: '{"truncated": ' },
        { kind: "embedding", wire: embeddingWire, match: "query", body: "<html>Bad Gateway</html>" },
      ]);
      const res = await mem.add("I like chess", { userId: "u" });
      assert.deepEqual(warningCodes(res), ["EXTRACTION_FAILED"]);
      assert.match(res.warnings[0].message, /LLM response unusable/);
      await rejectsWith(() => mem.search("query", { userId: "u" }), "EMBEDDING_RESPONSE");
      assert.deepEqual(await stored(mem), []);
    });
  }
});

describe("hosts that refuse structured output get prompt-only JSON, once detected", () => {
  const cases = [
    ["groq", "response_format", "'response_format.type' json_object is not supported for this model"],
    [
      "azure_openai",
      "response_format",
      "response_format value as json_object is enabled only for api versions 2023-12-01-preview and later",
    ],
    ["anthropic", "tools", "tools: this model does not support tool use"],
    [
      "gemini",
      "generationConfig.responseSchema",
      "Invalid JSON payload received. Unknown name \"responseSchema\" at 'generation_config'",
    ],
    ["ollama", "format", 'invalid format: expected "json" or a JSON schema'],
    ["workers-ai", "response_format", "JSON Mode is not supported for this model (response_format)"],
  ];
  for (const [name, field, message] of cases) {
    test(`${name}: a 400 naming ${field} is retried without it, and it is never sent again`, T, async () => {
      const { config } = providerConfig(name, server);
      const mem = new Memory(config);
      const once = { times: 1 };
      server.script([
        { kind: "chat", has: field, status: 400, message },
        extraction("I like chess", ["User likes chess"], once),
        decision("User likes chess", addsFor(["User likes chess"]), once),
      ]);
      const first = await mem.add("I like chess", { userId: "u" });
      assert.deepEqual(first.warnings, []);
      server.script([
        extraction("I like tea", ["User likes tea"]),
        decision("User likes tea", addsFor(["User likes tea"])),
      ]);
      await mem.add("I like tea", { userId: "u" });
      const sent = server
        .requests("chat")
        .map((r) => [r.status, field.split(".").reduce((v, k) => v?.[k], r.body) !== undefined]);
      assert.deepEqual(sent, [
        [400, true],
        [200, false],
        [200, false],
        [200, false],
        [200, false],
      ]);
      assert.deepEqual((await stored(mem)).sort(), ["User likes chess", "User likes tea"]);
    });
  }

  test("a 400 that does not name the structured-output field is not retried", T, async () => {
    const mem = memory("anthropic");
    server.script([
      { kind: "chat", status: 400, message: "prompt is too long: 250000 tokens > 200000 maximum" },
      ...chess(),
    ]);
    const res = await mem.add("I like chess", { userId: "u" });
    assert.deepEqual(warningCodes(res), ["EXTRACTION_FAILED"]);
    assert.equal(server.count("chat"), 1);
  });
});

describe("provider options on the wire", () => {
  test(
    "anthropic: dangerouslyAllowBrowser sends the direct-browser-access header; toolOutput: false reads text",
    T,
    async () => {
      const { config } = providerConfig("anthropic", server);
      config.llm.config = {
        ...config.llm.config,
        dangerouslyAllowBrowser: true,
        toolOutput: false,
        anthropicVersion: "2023-01-01",
      };
      const mem = new Memory(config);
      server.script(chess());
      const res = await mem.add("I like chess", { userId: "u" });
      assert.deepEqual(res.warnings, []);
      for (const req of server.requests("chat")) {
        assert.equal(req.headers["anthropic-dangerous-direct-browser-access"], "true");
        assert.equal(req.headers["anthropic-version"], "2023-01-01");
        assert.equal(req.body.tools, undefined);
        assert.deepEqual(
          JSON.parse(req.reply).content.map((b) => b.type),
          ["text"],
        );
      }
    },
  );

  test("anthropic: a tool-forced request answered in text still works (the text path)", T, async () => {
    const mem = memory("anthropic");
    server.script([
      extraction("I like chess", ["User likes chess"], { toolUse: false }),
      decision("User likes chess", addsFor(["User likes chess"]), { toolUse: false }),
    ]);
    const res = await mem.add("I like chess", { userId: "u" });
    assert.deepEqual(
      res.results.map((e) => e.event),
      ["ADD"],
    );
    assert.ok(
      server.requests("chat").every((r) => r.body.tool_choice && JSON.parse(r.reply).content[0].type === "text"),
    );
  });

  test("gemini: configured prompts (custom ones too) and per-call prompts get their schema", T, async () => {
    const mem = memory("gemini", { customPrompts: { factExtraction: 'List facts as JSON: {"facts": [...]}' } });
    server.script([
      { kind: "chat", match: "List facts as JSON", reply: { facts: ["User likes chess"] } },
      { kind: "chat", match: "Facts, one per line", reply: { facts: ["User likes tea"] } },
      decision("User likes", [], { times: 2 }),
    ]);
    await mem.add("I like chess", { userId: "u" });
    await mem.add("I like tea", { userId: "u", prompt: "Facts, one per line, as JSON" });
    const [custom, decide, perCall] = server.requests("chat");
    assert.equal(custom.body.generationConfig.responseSchema.properties.facts.type, "ARRAY");
    assert.equal(decide.body.generationConfig.responseSchema.properties.memory.type, "ARRAY");
    assert.equal(perCall.body.generationConfig.responseMimeType, "application/json");
    assert.equal(perCall.body.generationConfig.responseSchema.properties.facts.type, "ARRAY");
  });

  test(
    "workers-ai: model and JSON mode options reach the binding; a failing binding is LLM_CALLBACK / EMBEDDING_CALLBACK",
    T,
    async () => {
      const { config, binding } = providerConfig("workers-ai", server);
      config.llm.config = { model: "@cf/meta/llama-3.3-70b-instruct-fp8-fast", jsonMode: false, maxTokens: 512 };
      const mem = new Memory(config);
      server.script([
        ...chess(),
        {
          kind: "embedding",
          wire: "workers-ai",
          match: "query",
          status: 429,
          message: "Capacity temporarily exceeded",
        },
      ]);
      await mem.add("I like chess", { userId: "u" });
      const chats = binding.calls.filter((c) => c.inputs.messages);
      assert.deepEqual(
        chats.map((c) => [c.model, c.inputs.max_tokens, c.inputs.response_format]),
        [
          ["@cf/meta/llama-3.3-70b-instruct-fp8-fast", 512, undefined],
          ["@cf/meta/llama-3.3-70b-instruct-fp8-fast", 512, undefined],
        ],
      );
      await rejectsWith(
        () => mem.search("query", { userId: "u" }),
        "EMBEDDING_CALLBACK",
        (e) => assert.match(e.message, /Workers AI binding: 3040: Capacity temporarily exceeded/),
      );
      server.script({
        kind: "chat",
        wire: "workers-ai",
        match: "I like tea",
        status: 500,
        message: "InferenceUpstreamError",
      });
      const res = await mem.add("I like tea", { userId: "u" });
      assert.match(res.warnings[0].message, /LLM callback failed: Workers AI binding: 5006: InferenceUpstreamError/);
    },
  );

  test("workers-ai: a binding failure that is not about JSON mode keeps JSON mode on", T, async () => {
    const { config, binding } = providerConfig("workers-ai", server);
    const mem = new Memory(config);
    server.script([
      {
        kind: "chat",
        wire: "workers-ai",
        match: EXTRACT,
        status: 429,
        message: "Capacity temporarily exceeded",
        times: 1,
      },
      ...chess(),
    ]);
    const res = await mem.add("I like chess", { userId: "u" });
    assert.deepEqual(warningCodes(res), ["EXTRACTION_FAILED"]);
    await mem.add("I like chess", { userId: "u" });
    const formats = binding.calls.filter((c) => c.inputs.messages).map((c) => c.inputs.response_format?.type);
    assert.deepEqual(formats, ["json_schema", "json_schema", "json_schema"], "no plain retry, JSON mode still on");
  });

  for (const name of ["gemini", "workers-ai"]) {
    test(`${name}: more than 100 texts are embedded 100 per request`, T, async () => {
      const mem = memory(name);
      const messages = Array.from({ length: 150 }, (_, i) => ({ role: "user", content: `note number ${i}` }));
      const res = await mem.add(messages, { userId: "u", infer: false });
      assert.equal(res.results.length, 150);
      const sizes = server.requests("embedding").map((r) => r.inputs.length);
      assert.deepEqual(sizes, [100, 50]);
      assertAllValid(server);
    });
  }

  test("workers-ai: vectors checked against the BGE model's size", T, async () => {
    const { config } = providerConfig("workers-ai", server);
    config.embedder.config = { model: "@cf/baai/bge-small-en-v1.5", dimensions: 768 };
    const mem = new Memory(config);
    await rejectsWith(
      () => mem.search("query", { userId: "u" }),
      "DIMENSION_MISMATCH",
      (e) => assert.match(e.message, /384 dimensions, expected 768/),
    );
  });
});

describe("a per-call prompt keeps structured output on every wire", () => {
  /** How each wire asks for the reply's shape, read from a request the scripted server logged. */
  const shapeOf = {
    openai: (request) => request.body.response_format?.type,
    azure_openai: (request) => request.body.response_format?.type,
    groq: (request) => request.body.response_format?.type,
    anthropic: (request) => request.body.tool_choice?.name,
    gemini: (request) => request.body.generationConfig?.responseSchema?.required?.[0],
    ollama: (request) => request.body.format,
  };
  const expected = {
    openai: "json_object",
    azure_openai: "json_object",
    groq: "json_object",
    anthropic: "record_facts",
    gemini: "facts",
    ollama: "json",
  };
  const PROMPT = "Only keep facts about drinks; reply as JSON.";
  for (const name of HTTP) {
    test(`${name}: add(…, {prompt}) asks for the facts shape`, T, async () => {
      const mem = memory(name);
      server.script([
        { kind: "chat", match: [PROMPT, "I like tea"], reply: { facts: ["User likes tea"] } },
        decision("User likes tea", addsFor(["User likes tea"])),
      ]);
      const res = await mem.add("I like tea", { userId: "u", prompt: PROMPT });
      assert.deepEqual(res.warnings, []);
      const [extract] = server.requests("chat");
      assert.ok(extract.system?.includes(PROMPT) || extract.text.includes(PROMPT), "the custom prompt was sent");
      assert.equal(shapeOf[name](extract), expected[name]);
      assert.deepEqual(await stored(mem), ["User likes tea"]);
    });
  }

  test("workers-ai: add(…, {prompt}) sends the facts JSON schema", T, async () => {
    const { config, binding } = providerConfig("workers-ai", server);
    const mem = new Memory(config);
    server.script([
      { kind: "chat", match: [PROMPT, "I like tea"], reply: { facts: ["User likes tea"] } },
      decision("User likes tea", addsFor(["User likes tea"])),
    ]);
    await mem.add("I like tea", { userId: "u", prompt: PROMPT });
    const [extract] = binding.calls.filter((c) => c.inputs.messages);
    assert.equal(extract.inputs.messages[0].content, PROMPT);
    assert.equal(extract.inputs.response_format.type, "json_schema");
    assert.deepEqual(extract.inputs.response_format.json_schema.required, ["facts"]);
  });

  test("custom: generate() receives the facts schema with a per-call prompt", T, async () => {
    const requests = [];
    const mem = new Memory({
      llm: {
        provider: "custom",
        generate: (request) => {
          requests.push(request);
          return request.system === PROMPT ? JSON.stringify({ facts: ["User likes tea"] }) : JSON.stringify({ memory: [] });
        },
      },
      embedder: { provider: "none" },
    });
    await mem.add("I like tea", { userId: "u", prompt: PROMPT });
    assert.equal(requests[0].json, true);
    assert.equal(requests[0].schema.name, "record_facts");
    assert.deepEqual(requests[0].schema.schema.required, ["facts"]);
    assert.equal(requests[1].schema.name, "record_memory_operations");
  });
});
