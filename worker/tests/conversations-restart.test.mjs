// A worker restarted mid-buffer loses nothing: pending messages and conversation metadata live in KV
// (Miniflare's kvPersist), so after the restart a resent message is a duplicate, search still lists the
// pending ones, and the next gap extracts the messages from before and after the restart as one episode.
import assert from "node:assert/strict";
import { test } from "node:test";
import { T, startServer, tempDir } from "./helpers.mjs";
import { BASE, EPISODE, episode, message, noBoundary, okResult, query, startConversationWorker } from "./conversations-helpers.mjs";

test("a restarted worker keeps the pending messages and extracts them at the next gap", T, async (t) => {
  const server = await startServer();
  t.after(() => server.close());
  const persist = tempDir(t);
  server.script([noBoundary(), episode("kickoff agenda", { summary: "Alice Smith and Bob set the kickoff agenda." })]);
  const meta = {
    version: "1.0.0", scene: "group_chat", scene_desc: { description: "Kickoff" }, name: "Kickoff", group_id: "kick",
    created_at: "2025-05-01T08:00:00Z", user_details: { alice: { full_name: "Alice Smith" } },
  };
  const before = [
    message("k1", "2025-05-01T09:00:00Z", "alice", "Here is the kickoff agenda draft.", "kick"),
    message("k2", "2025-05-01T09:03:00Z", "bob", "Looks good, add a demo slot.", "kick"),
  ];

  const first = await startConversationWorker(server, { persist });
  okResult(await first.call("POST", `${BASE}/conversation-meta`, { body: meta }));
  for (const m of before) okResult(await first.call("POST", BASE, { body: m }));
  await first.dispose();

  const second = await startConversationWorker(server, { persist });
  t.after(() => second.dispose());
  const search = okResult(await second.call("GET", `${BASE}/search` + query({ query: "agenda", group_id: "kick" })));
  assert.deepEqual(search.pending_messages.map((m) => [m.message_id, m.content]), before.map((m) => [m.message_id, m.content]));
  const resent = okResult(await second.call("POST", BASE, { body: before[1] }));
  assert.deepEqual([resent.duplicate, resent.pending_messages.length], [true, 2]);
  okResult(await second.call("POST", BASE, { body: message("k3", "2025-05-01T09:05:00Z", "alice", "Demo slot added.", "kick") }));

  const gap = okResult(await second.call("POST", BASE, { body: message("k4", "2025-05-01T11:00:00Z", "bob", "Lunch?", "kick") }));
  assert.equal(gap.status_info, "extracted");
  assert.deepEqual(gap.episodes.map((e) => e.message_ids), [["k1", "k2", "k3"]]);
  assert.deepEqual(gap.pending_messages.map((m) => m.message_id), ["k4"]);
  const [prompt] = server.requests("chat").filter((r) => JSON.stringify(r.body).includes(EPISODE));
  assert.match(JSON.stringify(prompt.body), /Alice Smith/, "the metadata saved before the restart reached the prompt");
  const episodes = okResult(await second.call("GET", BASE + query({ group_id: "kick" }))).memories;
  assert.deepEqual(episodes.map((m) => m.content), ["Alice Smith and Bob set the kickoff agenda."]);
});
