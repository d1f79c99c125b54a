// Models that refuse sampling parameters: OpenAI's reasoning models (o-series, gpt-5, mem0's default
// `gpt-5-mini`) answer 400 to `temperature` other than 1 and to `max_tokens`. A request refused for naming one
// is sent again without `temperature`, `max_tokens` and `top_p` (what mem0 sends: the model alone), and the
// instance remembers it; any other 400 is not retried.
import { test } from "node:test";
import assert from "node:assert/strict";
import { T, EXTRACT, extraction, decision, addsFor, makeMemory, scriptedServer } from "./helpers.mjs";

const server = scriptedServer();
const SAMPLING = ["temperature", "max_tokens", "top_p"];
const sent = (request) => SAMPLING.filter((name) => request.body[name] !== undefined);

const REFUSALS = [
  ["temperature", "Unsupported value: 'temperature' does not support 0 with this model. Only the default (1) value is supported."],
  ["max_tokens", "Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead."],
];

for (const [parameter, message] of REFUSALS) {
  test(`a model that refuses ${parameter} is asked again without sampling parameters, and from then on`, T, async () => {
    const memory = makeMemory(server, { llm: { model: "gpt-5-mini", topP: 0.9 } });
    server.script([
      { kind: "chat", has: parameter, status: 400, message },
      extraction("I like chess", ["User likes chess"]),
      decision("User likes chess", addsFor(["User likes chess"]), { times: 1 }),
      extraction("I like tea", ["User likes tea"]),
      decision("User likes tea", addsFor(["User likes tea"])),
    ]);
    const first = await memory.add("I like chess", { userId: "u" });
    assert.deepEqual([first.warnings ?? [], first.results.map((r) => r.memory)], [[], ["User likes chess"]]);
    await memory.add("I like tea", { userId: "u" });
    const chats = server.requests("chat");
    assert.deepEqual(chats.map(sent), [SAMPLING, [], [], [], []], "refused once, then never sent again");
    assert.ok(chats.every((r) => r.body.model === "gpt-5-mini"));
    assert.deepEqual((await memory.getAll({ userId: "u" })).results.map((m) => m.memory).sort(), ["User likes chess", "User likes tea"]);
  });
}

test("another 400 is not retried, and the sampling parameters stay", T, async () => {
  const memory = makeMemory(server, { retry: { maxRetries: 0 } });
  server.script([
    { kind: "chat", match: EXTRACT, status: 400, message: "This model's maximum context length is 128000 tokens", times: 1 },
    extraction("I like chess", ["User likes chess"]),
    decision("User likes chess", addsFor(["User likes chess"])),
  ]);
  const refused = await memory.add("I like chess", { userId: "u" });
  assert.deepEqual(refused.warnings.map((w) => [w.code, w.cause, w.status]), [["EXTRACTION_FAILED", "LLM_HTTP", 400]]);
  await memory.add("I like chess", { userId: "u" });
  assert.deepEqual(server.requests("chat").map(sent), [
    ["temperature", "max_tokens"], ["temperature", "max_tokens"], ["temperature", "max_tokens"],
  ]);
});
