// A hosted model service without an API key is refused when the memory is built (INVALID_CONFIG naming the
// provider, the field and the ways out), instead of every add() resolving with an EXTRACTION_FAILED warning.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { Memory, MemoryError } from "memwasm";
import { T, makeMemory, scriptedServer } from "./helpers.mjs";

const server = scriptedServer();

/** The INVALID_CONFIG error `new Memory(config)` throws. */
function refused(config) {
  let caught;
  assert.throws(
    () => new Memory(config),
    (err) => {
      assert.ok(err instanceof MemoryError, String(err));
      assert.equal(err.code, "INVALID_CONFIG", err.message);
      caught = err;
      return true;
    },
  );
  return caught;
}

/** Runs `body` with `names` removed from process.env (the library reads keys from it in Node). */
function withoutEnv(names, body) {
  const saved = names.map((name) => [name, process.env[name]]);
  for (const name of names) delete process.env[name];
  try {
    return body();
  } finally {
    for (const [name, value] of saved) if (value !== undefined) process.env[name] = value;
  }
}

const KEYS = ["OPENAI_API_KEY", "OPENAI_BASE_URL", "ANTHROPIC_API_KEY", "GEMINI_API_KEY", "GOOGLE_API_KEY", "GROQ_API_KEY"];

describe("hosted providers need a key at construction", () => {
  test("new Memory() without OPENAI_API_KEY says which provider, which field and what to do", T, () => {
    const err = withoutEnv(KEYS, () => refused(undefined));
    assert.match(err.message, /llm\.config\.apiKey/);
    assert.match(err.message, /"openai" provider needs an API key/);
    for (const way of ["OPENAI_API_KEY", "llm.config.baseUrl", '"ollama"', '"custom"', '"none"']) {
      assert.ok(err.message.includes(way), `${way} in ${err.message}`);
    }
  });

  test("the embedder's message names the on-device embedder too", T, () => {
    const err = withoutEnv(KEYS, () => refused({ llm: { provider: "none" } }));
    assert.match(err.message, /embedder\.config\.apiKey: the "openai" provider/);
    assert.match(err.message, /"local" \(on-device\)/);
  });

  test("anthropic, gemini and the hosted OpenAI-compatible hosts too; a blank key counts as none", T, () => {
    withoutEnv(KEYS, () => {
      const none = { provider: "none" };
      assert.match(refused({ llm: { provider: "anthropic" }, embedder: none }).message, /ANTHROPIC_API_KEY/);
      assert.match(refused({ llm: none, embedder: { provider: "gemini" } }).message, /embedder\.config\.apiKey.*GEMINI_API_KEY/);
      assert.match(refused({ llm: { provider: "groq", config: { model: "m" } }, embedder: none }).message, /"groq"/);
      assert.match(refused({ llm: { provider: "openai", config: { apiKey: "" } }, embedder: none }).message, /llm\.config\.apiKey/);
    });
  });

  test("a key in the environment, a baseUrl of one's own or a local provider needs no key in the config", T, () => {
    withoutEnv(KEYS, () => {
      new Memory({ llm: { provider: "openai", config: { baseUrl: server.baseUrl } }, embedder: { provider: "ollama" } });
      new Memory({ llm: { provider: "vllm", config: { model: "m" } }, embedder: { provider: "lmstudio", config: { model: "e" } } });
      new Memory({ llm: { provider: "none" }, embedder: { provider: "none" } });
      process.env.OPENAI_API_KEY = "sk-from-env";
      try {
        assert.ok(new Memory() instanceof Memory, "bare new Memory() with OPENAI_API_KEY set");
      } finally {
        delete process.env.OPENAI_API_KEY;
      }
      process.env.OPENAI_BASE_URL = server.baseUrl;
      try {
        assert.ok(new Memory() instanceof Memory, "OPENAI_BASE_URL points at a server of one's own");
      } finally {
        delete process.env.OPENAI_BASE_URL;
      }
    });
  });

  test("mem0's config shape with a key still works, and Memory.open checks the same", T, async () => {
    const mem = new Memory({
      llm: { provider: "openai", config: { apiKey: "test-key", model: "gpt-4o-mini", baseURL: server.baseUrl } },
      embedder: { provider: "openai", config: { apiKey: "test-key", model: "text-embedding-3-small", embeddingDims: 64, baseURL: server.baseUrl } },
      vectorStore: { provider: "memory", config: { collectionName: "memories", dimension: 64 } },
      disableHistory: false,
    });
    assert.deepEqual((await mem.getAll({ userId: "u" })).results, []);
    await withoutEnv(KEYS, () =>
      assert.rejects(Memory.open({ llm: { provider: "anthropic" } }), (err) => err.code === "INVALID_CONFIG" && /ANTHROPIC_API_KEY/.test(err.message)),
    );
    assert.ok(makeMemory(server));
  });
});
