// Error texts that say what to do: a mistyped option names the one that was meant, unknown-provider errors list
// exactly the providers of that part (the embedder's with "local", without the hosts that have no embeddings
// API), and the on-device embedder where it cannot run (the bare module, as Cloudflare Workers load it) says so.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { Memory } from "memwasm";
import { Memory as CoreMemory } from "../../pkg/dist/memwasm.js";
import { T, makeMemory, rejectsWith, scriptedServer, testConfig } from "./helpers.mjs";

const server = scriptedServer();

function thrown(make) {
  try {
    make();
  } catch (err) {
    return err;
  }
  assert.fail("expected a throw");
}

/** The names in "(supported: a, b, c)". */
const supported = (message) => message.match(/\(supported: ([^)]*)\)/)[1].split(", ");

describe("a mistyped option", () => {
  test("userID in add() suggests userId instead of listing every option", T, async () => {
    const mem = makeMemory(server);
    const err = await rejectsWith(() => mem.add("hi", { userID: "alice" }), "INVALID_INPUT");
    assert.match(err.message, /unknown field `userID`, did you mean `userId`\?$/);
    assert.ok(err.message.length < 80, err.message);
  });

  test("in the config and in a provider's config too", T, () => {
    const top = thrown(() => new Memory(testConfig(server, { pipline: "fast" })));
    assert.equal(top.code, "INVALID_CONFIG");
    assert.match(top.message, /did you mean `pipeline`\?/);
    const nested = thrown(() => new Memory(testConfig(server, { llm: { apikey: "k" } })));
    assert.match(nested.message, /llm\.config\.apikey: unknown field `apikey`, did you mean `apiKey`\?/);
  });

  test("with nothing close, the options are listed once each, without their snake_case twins", T, async () => {
    const mem = makeMemory(server);
    const err = await rejectsWith(() => mem.search("x", { userId: "u", colour: "red" }), "INVALID_INPUT");
    assert.match(err.message, /unknown field `colour`; the known ones are `userId`, /);
    assert.doesNotMatch(err.message, /`user_id`/);
  });
});

describe("unknown providers", () => {
  test("the embedder's list has local and no host without an embeddings API", T, () => {
    const names = supported(thrown(() => new Memory({ ...testConfig(server), embedder: { provider: "nope" } })).message);
    assert.ok(names.includes("local") && names.includes("ollama") && names.includes("together"), names.join());
    for (const absent of ["anthropic", "groq", "openrouter", "deepseek"]) assert.ok(!names.includes(absent), absent);
  });

  test("the LLM's list has anthropic and the hosts, and no local", T, () => {
    const names = supported(thrown(() => new Memory({ ...testConfig(server), llm: { provider: "nope" } })).message);
    for (const name of ["anthropic", "groq", "openai_compatible", "workers-ai", "custom", "none"]) assert.ok(names.includes(name), name);
    assert.ok(!names.includes("local"));
  });
});

describe("the on-device embedder where it cannot run", () => {
  test("the bare module (what the Workers entry exports) says it is not available and what to use", T, () => {
    const config = { ...testConfig(server), embedder: { provider: "local", config: { weights: "w", tokenizer: "t" } } };
    const err = thrown(() => new CoreMemory(config));
    assert.equal(err.code, "INVALID_CONFIG");
    assert.doesNotMatch(err.message, /unknown provider/);
    for (const part of ["not available", "Cloudflare Workers", '"workers-ai"', "binding: env.AI"]) {
      assert.ok(err.message.includes(part), `${part} in ${err.message}`);
    }
  });
});
