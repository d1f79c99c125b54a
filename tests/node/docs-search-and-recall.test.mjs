// The agentic search, recall and agent-tool blocks of docs/search-and-recall.md run as written against the
// scripted server, each with a `memory` of the standard test config holding what the page implies; what their
// comments claim is asserted, quoted above each check.
import { test } from "node:test";
import assert from "node:assert/strict";
import { T, makeMemory, scriptedServer } from "./helpers.mjs";
import { blocksRunBy } from "./docs-pages.mjs";
import { keepClaimed, runBlock } from "./docs-run.mjs";

const server = scriptedServer();
const blocks = blocksRunBy("tests/node/docs-search-and-recall.test.mjs");
const block = (part) => blocks.find((b) => b.code.includes(part)) ?? assert.fail(`a block with ${part} is marked run by this file`);
const QUERIES = ["What did the team decide about the launch?", "launch review date", "launch slides owner"];

test("docs/search-and-recall.md: agentic search runs the refined queries after the caller's", T, async () => {
  const memory = makeMemory(server);
  for (const text of ["The launch review moved to Thursday", "Bob prepares the launch slides", "The coffee machine is new"]) {
    await memory.add(text, { runId: "rocket", infer: false });
  }
  server.script([
    { kind: "chat", match: ["A user's query"], reply: { sufficient: false, reasoning: "no date", missing_information: ["the review date", "who owns the slides"] } },
    { kind: "chat", match: ["A query run"], reply: { queries: QUERIES.slice(1) } },
  ]);
  const { queries, results } = await runBlock(`${block('method: "agentic"').code}\nreturn { queries, results };`, { memory });
  // queries: ["What did the team decide about the launch?", "launch review date", "launch slides owner"]
  assert.deepEqual(queries, QUERIES);
  assert.equal(server.requests("chat").length, 2, "the judgement and the refinement");
  assert.ok(results.some((m) => m.memory === "The launch review moved to Thursday"));
});

test("docs/search-and-recall.md: a time named in the query raises the memories of that time", T, async () => {
  const memory = makeMemory(server);
  const code = block("referenceDate").code;
  const { first } = await runBlock(`${code}\nreturn { first };`, { memory });
  // "We went to the beach with the kids"
  assert.equal(first, "We went to the beach with the kids");
  // The same words about June put the June memory first: the date, not the text, decided.
  const { results } = await memory.search("Where did we go last June?", { userId: "bob", referenceDate: "2023-08-20" });
  assert.equal(results[0].memory, "We went to the beach with friends");
});

test("docs/search-and-recall.md: recall() puts procedural memories first, each line tagged with its type", T, async () => {
  const memory = makeMemory(server);
  const add = (text, type) => memory.add(text, { userId: "alice", infer: false, metadata: { type } });
  await add("User is vegetarian.", "semantic");
  await add("2024-01-20: Cooked a mushroom risotto for friends.", "episodic");
  await add("Communication style: direct, technical, no preamble.", "procedural");
  const { text } = await runBlock(`${block("memory.recall(").code}\nreturn { text };`, { memory });
  const shown = [
    // <memory>
    "<memory>",
    // [PROCEDURAL] Communication style: direct, technical, no preamble.
    "[PROCEDURAL] Communication style: direct, technical, no preamble.",
    // [SEMANTIC] User is vegetarian.
    "[SEMANTIC] User is vegetarian.",
    // [EPISODIC] 2024-01-20: Cooked a mushroom risotto for friends.
    "[EPISODIC] 2024-01-20: Cooked a mushroom risotto for friends.",
    // </memory>
    "</memory>",
  ];
  assert.equal(text.split("\n")[0], shown[0]);
  assert.equal(text.split("\n")[1], shown[1], "the procedural memory goes first");
  assert.deepEqual(text.split("\n").slice(2, -1).sort(), shown.slice(2, -1).sort());
  assert.equal(text.split("\n").at(-1), shown.at(-1));
});

test("docs/search-and-recall.md: the agent tools have the shapes and answers the comments show", T, async () => {
  const memory = makeMemory(server);
  await memory.add("User likes green tea", { userId: "alice", infer: false });
  const claimed = new Map();
  const code = keepClaimed(block("memory.tools(").code)
    .replace(/^tools\.definitions;/m, "const definitions = tools.definitions;");
  const { claude, definitions, tools } = await runBlock(`${code}\nreturn { claude, definitions, tools };`, { memory, __claimed: claimed });
  // {name, description, input_schema}
  assert.deepEqual(claude.definitions.map((d) => Object.keys(d).sort()), [["description", "input_schema", "name"], ["description", "input_schema", "name"]]);
  // [{type: "function", function: {name: "search_memory", …}}, {… "manage_memory" …}]
  assert.deepEqual(definitions.map((d) => [d.type, d.function.name]), [["function", "search_memory"], ["function", "manage_memory"]]);
  // {results: [{id, memory, score}]}
  const found = claimed.get("{results: [{id, memory, score}]}");
  assert.deepEqual(found.results.map((r) => Object.keys(r).sort()), [["id", "memory", "score"]]);
  // {event: "ADD", id, memory}; also {action: "update", id, content} and {action: "delete", id}
  const created = claimed.get('{event: "ADD", id, memory}; also {action: "update", id, content} and {action: "delete", id}');
  assert.deepEqual([created.event, typeof created.id, created.memory], ["ADD", "string", "User is vegetarian"]);
  const updated = await tools.runTool("manage_memory", { action: "update", id: created.id, content: "User is vegan" });
  assert.deepEqual([updated.event, updated.id], ["UPDATE", created.id]);
  assert.equal((await tools.runTool("manage_memory", { action: "delete", id: created.id })).event, "DELETE");
  assert.deepEqual((await memory.getAll({ userId: "alice" })).results.map((m) => m.memory), ["User likes green tea"]);
});
