// Graph memory in the REST service (GRAPH_ENABLED = "true"): entities and relations kept in KV, one key
// each under the tenant's prefix and the scope, read back by a restarted worker; GET /v1/entities/ and
// GET /v1/entities/:name/relations/ in snake_case, isolated between tenants.
import assert from "node:assert/strict";
import { test } from "node:test";
import { ACME, DECIDE, EXTRACT, INITECH, T, allKeys, assertError, startServer, startWorker, tempDir } from "./helpers.mjs";
import { graphToolCalls } from "../../tests/support/graph-reply.mjs";

const GRAPH = "You extract a knowledge graph";
const GRAPH_ON = { vars: { GRAPH_ENABLED: "true" } };

let inputs = 0;
/** Adds `facts` for `scope` with Alice (person) —works_at→ Google (organization); returns the memory ids. */
async function addAlice(call, server, facts, scope, token = ACME) {
  const input = `graph conversation ${++inputs}`;
  const entities = [{ name: "alice", type: "person", description: "engineer" }, { name: "Google", type: "organization" }];
  const relations = [{ source: "Alice", relation: "works_at", target: "Google" }];
  server.script([
    { kind: "chat", match: [EXTRACT, input], reply: { facts }, times: 1 },
    { kind: "chat", match: [DECIDE, facts[0]], reply: { memory: facts.map((text) => ({ text, event: "ADD" })) }, times: 1 },
    { kind: "chat", match: [GRAPH, input], body: graphToolCalls(entities, relations), times: 1 },
  ]);
  const { status, body } = await call("POST", "/v1/memories/", { token, body: { messages: input, ...scope } });
  assert.equal(status, 200, JSON.stringify(body));
  assert.deepEqual(body.warnings ?? [], []);
  return body.results.map((event) => event.id);
}

const triples = (response) => response.body.results.map((r) => [r.source, r.relation, r.target]);

test("the graph survives a worker restart, kept one key per entity and relation", T, async (t) => {
  const server = await startServer();
  t.after(() => server.close());
  const persist = tempDir(t);

  const first = await startWorker(server, { ...GRAPH_ON, persist });
  const ids = await addAlice(first.call, server, ["Name is Alice", "Is an engineer"], { user_id: "alice" });
  const [single] = await addAlice(first.call, server, ["Name is Alice"], { user_id: "carol" });
  const before = await first.call("GET", "/v1/entities/?user_id=alice");
  const graphKeys = (await allKeys(await first.kv(), "t/acme/graph/")).sort();
  await first.dispose();

  assert.equal(graphKeys.length, 6, `two entities and a relation per scope: ${graphKeys.join("\n")}`);
  assert.ok(graphKeys.every((key) => /^t\/acme\/graph\/(alice|carol)\/\/\/[^/]+$/.test(key)), graphKeys.join("\n"));

  const second = await startWorker(server, { ...GRAPH_ON, persist });
  t.after(() => second.dispose());
  const entities = await second.call("GET", "/v1/entities/?user_id=alice");
  assert.equal(entities.status, 200);
  assert.deepEqual(entities.body, before.body, "the same entities after the restart");
  assert.deepEqual(entities.body.results.map((e) => [e.name, e.type]), [["Alice", "person"], ["Google", "organization"]]);
  const [alice] = entities.body.results;
  assert.equal(alice.description, "engineer");
  assert.equal(alice.user_id, "alice");
  assert.deepEqual([...alice.memory_ids].sort(), [...ids].sort());
  assert.ok(alice.created_at && alice.updated_at, JSON.stringify(alice));

  const relations = await second.call("GET", "/v1/entities/ALICE/relations/?user_id=alice");
  assert.equal(relations.status, 200);
  assert.deepEqual(triples(relations), [["Alice", "works_at", "Google"]]);
  assert.deepEqual([...relations.body.results[0].memory_ids].sort(), [...ids].sort());

  const query = "/v1/memories/search/?q=What%20about%20Google%3F&user_id=alice&threshold=0.5";
  const found = await second.call("GET", query);
  assert.deepEqual(found.body.results.map((m) => m.memory).sort(), ["Is an engineer", "Name is Alice"]);
  assert.deepEqual(found.body.relations, [{ source: "Alice", relation: "works_at", target: "Google" }]);

  // Deleting carol's only memory (a memory loaded by id, its scope not used before) removes her relation.
  assert.equal((await second.call("DELETE", `/v1/memories/${single}/`)).status, 200);
  assert.deepEqual((await second.call("GET", "/v1/entities/Alice/relations/?user_id=carol")).body.results, []);
  const third = await startWorker(server, { ...GRAPH_ON, persist });
  t.after(() => third.dispose());
  assert.deepEqual((await third.call("GET", "/v1/entities/Alice/relations/?user_id=carol")).body.results, []);
  assert.deepEqual(triples(await third.call("GET", "/v1/entities/Alice/relations/?user_id=alice")), [
    ["Alice", "works_at", "Google"],
  ]);
});

test("both graph endpoints are isolated between tenants", T, async (t) => {
  const server = await startServer();
  t.after(() => server.close());
  const worker = await startWorker(server, GRAPH_ON);
  t.after(() => worker.dispose());
  await addAlice(worker.call, server, ["Name is Alice"], { user_id: "alice" }, ACME);

  for (const [token, count] of [[ACME, 2], [INITECH, 0]]) {
    const entities = await worker.call("GET", "/v1/entities/?user_id=alice", { token });
    assert.equal(entities.status, 200);
    assert.equal(entities.body.results.length, count, JSON.stringify(entities.body));
    const relations = await worker.call("GET", "/v1/entities/Alice/relations/?user_id=alice", { token });
    assert.equal(relations.status, 200);
    assert.equal(relations.body.results.length, count / 2, JSON.stringify(relations.body));
  }
  await addAlice(worker.call, server, ["Name is Alice"], { user_id: "alice" }, INITECH);
  const initech = await worker.call("GET", "/v1/entities/Alice/relations/?user_id=alice", { token: INITECH });
  assert.deepEqual(initech.body.results[0].memory_ids.length, 1, "only Initech's memory");
  const acme = await worker.call("GET", "/v1/entities/Alice/relations/?user_id=alice", { token: ACME });
  assert.notDeepEqual(acme.body.results[0].memory_ids, initech.body.results[0].memory_ids);
  assert.ok((await allKeys(await worker.kv(), "t/initech/graph/alice/")).length === 3);

  assertError(await worker.call("GET", "/v1/entities/?user_id=alice", { token: null }), 401, "UNAUTHORIZED");
  assertError(await worker.call("GET", "/v1/entities/Alice/relations/?user_id=alice", { token: null }), 401, "UNAUTHORIZED");
  assertError(await worker.call("GET", "/v1/entities/"), 400, "SCOPE_REQUIRED");
  assertError(await worker.call("GET", "/v1/entities/Alice/relations/"), 400, "SCOPE_REQUIRED");
});

test("graph memory is off unless GRAPH_ENABLED says \"true\"", T, async (t) => {
  const server = await startServer();
  t.after(() => server.close());
  const off = await startWorker(server);
  t.after(() => off.dispose());
  assertError(await off.call("GET", "/v1/entities/?user_id=alice"), 400, "INVALID_INPUT");
  const typo = await startWorker(server, { vars: { GRAPH_ENABLED: "yes" } });
  t.after(() => typo.dispose());
  const refused = await typo.call("GET", "/v1/entities/?user_id=alice");
  assertError(refused, 500, "INVALID_CONFIG");
  assert.match(refused.body.error.message, /GRAPH_ENABLED/);
});
