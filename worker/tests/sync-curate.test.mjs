// Curation after a sync (`sync({curate: true})`), through the Worker in workerd with the scripted LLM: two
// devices that each learnt where Alice works end with one current fact and an UPDATE in its history, on both
// devices, byte for byte; the device that wrote the newer fact asks the LLM nothing, and a sync with nothing
// new asks nothing either.
import assert from "node:assert/strict";
import { test } from "node:test";
import { device } from "./sync-device.mjs";
import { startServer, startWorker } from "./helpers.mjs";
import { listAfter } from "../../tests/support/moving-user.mjs";

const ALICE = "tok-alice-0123456789";
const TOKENS = { [ALICE]: { tenant: "acme", user: "alice" } };
const KEY = new Uint8Array(32).fill(7);
const DECIDE = "You are a memory management system";

/** The decision: a new "works at" fact UPDATEs the listed memory saying where Alice works. */
const jobRule = {
  kind: "chat",
  match: [DECIDE, "works at"],
  reply: ({ user }) => {
    const job = listAfter(user, "Existing memories:").find((m) => String(m.text).includes("works at"));
    return { memory: listAfter(user, "New facts:").map((text) => (job ? { id: job.id, text, event: "UPDATE" } : { text, event: "ADD" })) };
  },
};

const decisions = (server) => server.requests("chat").filter((request) => JSON.stringify(request.body ?? request).includes(DECIDE)).length;
const texts = async (memory) => (await memory.getAll({ userId: "alice" })).results.map((m) => m.memory).sort();

test("two devices that learnt 'works at Acme' and 'works at Globex' end with one current fact and an UPDATE", { timeout: 120_000 }, async (t) => {
  const server = await startServer();
  const worker = await startWorker(server, { vars: { STORAGE: "do", MEMORY_TOKENS: JSON.stringify(TOKENS) } });
  t.after(async () => {
    await worker.dispose();
    await server.close();
  });
  server.script(jobRule);
  const url = String(await worker.mf.ready).replace(/\/$/, "");
  const options = { url, token: ALICE, key: KEY, curate: true };
  const [laptop, phone] = [await device(t, server, "laptop"), await device(t, server, "phone")];

  const acme = (await laptop.add("Alice works at Acme", { userId: "alice", infer: false })).results[0].id;
  await laptop.sync(options);
  await new Promise((resolve) => setTimeout(resolve, 5)); // the phone's fact is the newer one
  await phone.add("Alice works at Globex", { userId: "alice", infer: false });
  const fromPhone = await phone.sync(options);
  assert.equal(decisions(server), 0, "the phone holds the newer fact: it judges nothing");
  assert.equal(fromPhone.curated.judged, 0);

  const fromLaptop = await laptop.sync(options);
  assert.deepEqual([fromLaptop.curated.judged, fromLaptop.curated.updated, fromLaptop.curated.deleted], [1, 1, 1], JSON.stringify(fromLaptop));
  assert.equal(decisions(server), 1);
  assert.equal(fromLaptop.pending, 0, "what curation wrote went out in the same round");
  await phone.sync(options);

  for (const memory of [laptop, phone]) assert.deepEqual(await texts(memory), ["Alice works at Globex"]);
  const history = (await phone.history(acme)).map((record) => [record.event, record.newValue ?? record.new_value]);
  assert.deepEqual(history, [["ADD", "Alice works at Acme"], ["UPDATE", "Alice works at Globex"]]);
  assert.equal(await phone.exportMemories(), await laptop.exportMemories(), "both devices export the same bytes");
  for (const memory of [laptop, phone]) await memory.sync(options);
  assert.equal(decisions(server), 1, "syncs with nothing new ask the LLM nothing");
});
