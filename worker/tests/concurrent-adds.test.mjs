// Concurrent adds of one fact for one user store it once, on Workers KV as in a Durable Object: the requests
// one isolate serves at once share their add's commit step, and each sees what the others stored before it.
import assert from "node:assert/strict";
import { test } from "node:test";
import { DECIDE, EXTRACT, T, startServer, startWorker } from "./helpers.mjs";

const ADDS = 50;
const FACT = "User drinks green tea every morning";

for (const storage of ["kv", "do"]) {
  test(`${storage}: ${ADDS} concurrent adds of one fact for one user store it once`, T, async (t) => {
    const server = await startServer();
    t.after(() => server.close());
    const worker = await startWorker(server, { storage });
    t.after(() => worker.dispose());
    server.script([
      { kind: "chat", match: [EXTRACT, "green tea"], reply: { facts: [FACT] } },
      { kind: "chat", match: [DECIDE, FACT], reply: { memory: [{ text: FACT, event: "ADD" }] } },
    ]);
    const body = { messages: [{ role: "user", content: "I drink green tea every morning" }], user_id: "alice" };
    const answers = await Promise.all(Array.from({ length: ADDS }, () => worker.call("POST", "/v1/memories/", { body })));
    for (const answer of answers) assert.equal(answer.status, 200, JSON.stringify(answer.body));
    const listed = await worker.call("GET", "/v1/memories/?user_id=alice&limit=100");
    assert.deepEqual(listed.body.results.map((item) => item.memory), [FACT], `${listed.body.results.length} memories`);
    const [{ id }] = listed.body.results;
    const events = answers.flatMap((answer) => answer.body.results.map((event) => [event.event, event.id]));
    assert.equal(events.filter(([event]) => event === "ADD").length, 1, "one add stored it");
    assert.ok(events.every(([, eventId]) => eventId === id), "the others answer with the stored memory");
  });
}
