// The documented fast path for many turns that each carry their own metadata (bench/lib/locomo-ingest.mjs:
// one importMemories of memory lines) stores them as conversation turns, in the order said: an answer is
// found by the words of the question before it, as it is after add(…, {infer: false}).
import { test } from "node:test";
import assert from "node:assert/strict";
import { T, makeMemory, scriptedServer } from "./helpers.mjs";
import { ingest } from "../../bench/lib/locomo-ingest.mjs";

const server = scriptedServer();

const conversation = {
  speaker_a: "Ann",
  speaker_b: "Bob",
  session_1_date_time: "1:56 pm on 8 May, 2023",
  session_1: [
    { speaker: "Ann", dia_id: "D1:1", text: "Where did you go on holiday?" },
    { speaker: "Bob", dia_id: "D1:2", text: "Bilbao, for the museum." },
    { speaker: "Ann", dia_id: "D1:3", text: "I started painting again." },
  ],
};

test("turns imported by the fast path are read with the turn before them, in the order said", T, async () => {
  const memory = makeMemory(server);
  await ingest(memory, conversation, { userId: "u" });
  const { results } = await memory.search("holiday", { userId: "u", method: "keyword" });
  assert.deepEqual(
    results.map((m) => m.memory),
    ["Ann: Where did you go on holiday?", "Bob: Bilbao, for the museum."],
    "the answer shares no word with the query and is found with the question before it",
  );
  const all = (await memory.getAll({ userId: "u" })).results;
  const said = [...all].sort((a, b) => a.createdAt.localeCompare(b.createdAt)).map((m) => m.metadata.dia_id);
  assert.deepEqual(said, ["D1:1", "D1:2", "D1:3"], "stamped in the order said");
});
