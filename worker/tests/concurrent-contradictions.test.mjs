// Concurrent adds for one user that contradict, on Workers KV as in a Durable Object: eight requests, sent
// at once, each move the user to another city (tests/support/moving-user.mjs: the decision answers UPDATE
// when its prompt shows where the user lives). Each request's decision sees what the one before it decided:
// one current fact, 7 UPDATEs in its history.
import assert from "node:assert/strict";
import { test } from "node:test";
import { T, startServer, startWorker } from "./helpers.mjs";
import { CITIES, movingUser } from "../../tests/support/moving-user.mjs";

for (const storage of ["kv", "do"]) {
  test(`${storage}: 8 concurrent adds that each move the user end with one fact and 7 UPDATEs`, T, async (t) => {
    const server = await startServer();
    t.after(() => server.close());
    const worker = await startWorker(server, { storage });
    t.after(() => worker.dispose());
    server.script(movingUser());
    const add = (city) => ({ body: { messages: [{ role: "user", content: `I moved to ${city}` }], user_id: "alice" } });
    const answers = await Promise.all(CITIES.map((city) => worker.call("POST", "/v1/memories/", add(city))));
    for (const answer of answers) assert.equal(answer.status, 200, JSON.stringify(answer.body));
    const listed = (await worker.call("GET", "/v1/memories/?user_id=alice&limit=100")).body.results;
    assert.equal(listed.length, 1, `one current fact, found ${JSON.stringify(listed.map((m) => m.memory))}`);
    assert.match(listed[0].memory, /^User lives in \w+$/);
    const events = answers.flatMap((answer) => answer.body.results.map((event) => event.event));
    assert.deepEqual([events.filter((e) => e === "ADD").length, events.filter((e) => e === "UPDATE").length], [1, 7]);
    const history = (await worker.call("GET", `/v1/memories/${listed[0].id}/history/`)).body;
    assert.deepEqual(history.map((record) => record.event), ["ADD", ...Array(7).fill("UPDATE")]);
  });
}
