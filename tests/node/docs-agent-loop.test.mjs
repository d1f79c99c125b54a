// docs/search-and-recall.md's agent loop, run as written against the scripted server: only its `baseUrl` is
// the server's, and `OPENAI_API_KEY` / `OPENAI_BASE_URL` configure its `new Memory()`. The stand-in model
// stores two facts through the memory tools in the first turn, and in the second answers with them only when
// `recall()` put them in the system prompt, as the block's comments say.
import { test } from "node:test";
import assert from "node:assert/strict";
import { T, scriptedServer } from "./helpers.mjs";
import { blocksRunBy } from "./docs-pages.mjs";
import { runBlock, withEnv } from "./docs-run.mjs";

const server = scriptedServer();
const [block] = blocksRunBy("tests/node/docs-agent-loop.test.mjs");
const OPENAI = "https://api.openai.com/v1";

/** An OpenAI chat completion whose message calls the named tools. */
const toolCalls = (...calls) => JSON.stringify({
  id: "chatcmpl-scripted", object: "chat.completion", created: 0, model: "scripted",
  choices: [{ index: 0, finish_reason: "tool_calls", message: { role: "assistant", content: null,
    tool_calls: calls.map(([name, args], i) => ({ id: `call_${i + 1}`, type: "function", function: { name, arguments: JSON.stringify(args) } })) } }],
});
const WELCOME = "Welcome to Lisbon! I'll remember that you're vegetarian.";
const DINNER = "Try Ao 26 Vegan Food Project in Chiado: fully vegetarian.";

test("docs/search-and-recall.md: the agent loop stores two facts in turn 1 and recall brings them back in turn 2", T, async () => {
  assert.equal(block?.page, "docs/search-and-recall.md", "the block is marked run by this file");
  assert.ok(block.code.includes(`const baseUrl = "${OPENAI}";`), "the block names the OpenAI endpoint");
  server.script([
    { kind: "chat", match: "I just moved to Lisbon", times: 1, body: toolCalls(
      ["manage_memory", { action: "create", content: "User is vegetarian" }],
      ["manage_memory", { action: "create", content: "User lives in Lisbon" }],
    ) },
    { kind: "chat", match: ["I just moved to Lisbon", '"event":"ADD"'], reply: WELCOME },
    { kind: "chat", match: ["place for dinner", "User is vegetarian", "User lives in Lisbon"], reply: DINNER },
    { kind: "chat", match: "place for dinner", reply: "Where are you, and what do you like to eat?" },
  ]);
  const said = [];
  await withEnv({ OPENAI_API_KEY: "test-key", OPENAI_BASE_URL: server.baseUrl }, () =>
    runBlock(block.code.replace(OPENAI, server.baseUrl), {
      __import: (specifier) => import(specifier),
      console: { log: (...args) => said.push(args.join(" ")), warn: (...args) => said.push(args.join(" ")) },
    }));
  // the model stores two facts (turn 1), then recall brings them back (turn 2): each turn prints the model's answer.
  assert.deepEqual(said, [WELCOME, DINNER]);

  const chats = server.requests("chat").filter((r) => r.body.tools);
  assert.equal(chats.length, 3, "turn 1: tool calls, then the answer; turn 2: the answer");
  assert.ok(chats.every((r) => r.headers.authorization === "Bearer test-key"), "the key of OPENAI_API_KEY");
  const offered = chats[0].body.tools.map((t) => t.function.name).sort();
  assert.deepEqual(offered, ["manage_memory", "search_memory"]);
  // Turn 1, the model stores two facts: both are stored, and the tool results sent back say so.
  const results = chats[1].body.messages.filter((m) => m.role === "tool").map((m) => JSON.parse(m.content));
  assert.deepEqual(results.map((r) => [r.event, r.memory]), [["ADD", "User is vegetarian"], ["ADD", "User lives in Lisbon"]]);
  // Turn 2, recall brings them back: recall put both into the system prompt.
  const system = chats[2].body.messages[0];
  assert.equal(system.role, "system");
  assert.match(system.content, /<memory>[\s\S]*User is vegetarian[\s\S]*<\/memory>/);
  assert.match(system.content, /User lives in Lisbon/);
});
