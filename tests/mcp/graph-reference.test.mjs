// The knowledge-graph tools side by side with the reference memory server (@modelcontextprotocol/server-memory,
// its JSONL file in MEMORY_FILE_PATH), both over stdio through the official SDK client: the same calls, the same
// answers (what was created, added or deleted) and the same graph after each call.
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { T, connect, freshDb, scriptedServer } from "./helpers.mjs";

const REFERENCE = new URL("node_modules/@modelcontextprotocol/server-memory/dist/index.js", import.meta.url).pathname;

const server = scriptedServer();
let ours;
let reference;
let folder;
before(async () => {
  await server.ready;
  ours = await connect(server, freshDb());
  folder = mkdtempSync(join(tmpdir(), "memwasm-reference-"));
  const file = join(folder, "memory.jsonl");
  const transport = new StdioClientTransport({ command: process.execPath, args: [REFERENCE], env: { ...process.env, MEMORY_FILE_PATH: file }, stderr: "pipe" });
  reference = new Client({ name: "memwasm-tests", version: "1.0.0" });
  await reference.connect(transport);
});
after(async () => {
  await Promise.all([ours?.close(), reference?.close()]);
  if (folder) rmSync(folder, { recursive: true, force: true });
});

/** What a call answered that both servers answer: failed or not, and the reference's fields of its result. */
async function answer(client, name, args, fields) {
  const result = await client.callTool({ name, arguments: args });
  if (result.isError) return { failed: true };
  const body = result.structuredContent;
  return Object.fromEntries(fields.map((field) => [field, body[field]]));
}

/** The graph, in an order both keep: entities by name, relations by their triple. */
async function graph(client) {
  const { entities, relations } = (await client.callTool({ name: "read_graph", arguments: {} })).structuredContent;
  const triple = (r) => `${r.from}\u0000${r.relationType}\u0000${r.to}`;
  return {
    entities: [...entities].sort((a, b) => a.name.localeCompare(b.name)),
    relations: [...relations].sort((a, b) => triple(a).localeCompare(triple(b))),
  };
}

/** Runs one call on both servers and asserts the same answer and the same graph after it. */
async function same(name, args, fields) {
  const theirs = await answer(reference, name, args, fields);
  assert.deepEqual(await answer(ours, name, args, fields), theirs, `${name}(${JSON.stringify(args)})`);
  assert.deepEqual(await graph(ours), await graph(reference), `the graph after ${name}(${JSON.stringify(args)})`);
  return theirs;
}

const ALICE = { name: "Alice", entityType: "person", observations: ["Likes jazz"] };
const ACME = { name: "Acme", entityType: "organization", observations: [] };
const WORKS = { from: "Alice", to: "Acme", relationType: "works_at" };
const KNOWS = { from: "Bob", to: "Alice", relationType: "knows" };

test("creating what exists creates nothing: entities, relations and observations come back only when new", T, async () => {
  await same("create_entities", { entities: [ALICE, ACME] }, ["entities"]);
  const again = await same("create_entities", { entities: [{ ...ALICE, observations: ["Plays chess"] },
    { name: "Bob", entityType: "person", observations: ["Drinks tea"] }] }, ["entities"]);
  assert.deepEqual(again.entities.map((e) => e.name), ["Bob"], "the reference server skips an existing name");

  await same("create_relations", { relations: [WORKS] }, ["relations"]);
  assert.deepEqual((await same("create_relations", { relations: [WORKS, KNOWS] }, ["relations"])).relations, [KNOWS]);

  const observed = await same("add_observations", { observations: [{ entityName: "Alice", contents: ["Likes jazz", "Speaks French"] }] }, ["results"]);
  assert.deepEqual(observed.results, [{ entityName: "Alice", addedObservations: ["Speaks French"] }]);
  await same("add_observations", { observations: [{ entityName: "Alice", contents: ["Speaks French"] }] }, ["results"]);
  const unknown = { observations: [{ entityName: "Bob", contents: ["Sings"] }, { entityName: "Nobody", contents: ["x"] }] };
  assert.deepEqual(await same("add_observations", unknown, ["results"]), { failed: true }, "nothing is added to Bob either");
});

test("deleting observations, relations and entities leaves the same graph", T, async () => {
  const DANA = { name: "Dana", entityType: "person", observations: ["Speaks French"] };
  const INITECH = { name: "Initech", entityType: "organization", observations: [] };
  const works = { from: "Dana", to: "Initech", relationType: "works_at" };
  await same("create_entities", { entities: [DANA, INITECH, { name: "Erin", entityType: "person", observations: [] }] }, ["entities"]);
  await same("create_relations", { relations: [works, { from: "Erin", to: "Dana", relationType: "knows" }] }, ["relations"]);

  const anvils = { observations: [{ entityName: "Initech", contents: ["Makes anvils"] }] };
  for (let i = 0; i < 3; i += 1) await same("add_observations", anvils, ["results"]);
  const unobserve = { deletions: [{ entityName: "Initech", observations: ["Makes anvils"] }] };
  await same("delete_observations", unobserve, ["success", "message"]);
  await same("delete_observations", { deletions: [{ entityName: "Dana", observations: ["Speaks French"] }] }, ["success", "message"]);
  await same("add_observations", { observations: [{ entityName: "Dana", contents: ["Speaks French"] }] }, ["results"]);
  await same("delete_relations", { relations: [works] }, ["success", "message"]);
  await same("delete_entities", { entityNames: ["Erin"] }, ["success", "message"]);
  await same("create_relations", { relations: [works] }, ["relations"]);
  await same("search_nodes", { query: "french" }, ["entities", "relations"]);
  await same("open_nodes", { names: ["Initech"] }, ["entities", "relations"]);
});
