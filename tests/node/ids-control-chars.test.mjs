// Ids holding a control character (U+0000–U+001F, U+007F–U+009F) or a line / paragraph separator are refused
// with INVALID_INPUT by every call that takes one: scope ids, memory ids, keys, conversation message ids.
// Ordinary Unicode ids (accents, CJK, emoji) keep working.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { T, makeMemory, rejectsWith, scriptedServer } from "./helpers.mjs";

const server = scriptedServer();

const BAD = ["a\u0000b", "a\u0001", "a\u001b[31m", "a\u007f", "a\u0085b", "a\u2028b", "a\u2029"];
const UNICODE = ["Zoë", "用户", "🙂-user", "ユーザー_1"];

describe("ids with control characters are INVALID_INPUT", () => {
  test("add, search and getAll with such a userId, agentId or runId", T, async () => {
    const mem = makeMemory(server);
    for (const bad of BAD) {
      for (const scope of [{ userId: bad }, { agentId: bad }, { userId: "u", runId: bad }]) {
        await rejectsWith(() => mem.add("I like tea", { ...scope, infer: false }), "INVALID_INPUT");
        await rejectsWith(() => mem.search("tea", scope), "INVALID_INPUT");
        await rejectsWith(() => mem.getAll(scope), "INVALID_INPUT");
        await rejectsWith(() => mem.deleteAll(scope), "INVALID_INPUT");
      }
    }
    assert.deepEqual((await mem.getAll({ userId: "a" })).results, []);
  });

  test("store, getByKey and deleteByKey with such a key", T, async () => {
    const mem = makeMemory(server);
    for (const bad of BAD) {
      await rejectsWith(() => mem.store(bad, "value", { userId: "u" }), "INVALID_INPUT");
      await rejectsWith(() => mem.getByKey(bad, { userId: "u" }), "INVALID_INPUT");
      await rejectsWith(() => mem.deleteByKey(bad, { userId: "u" }), "INVALID_INPUT");
    }
    assert.deepEqual((await mem.getAll({ userId: "u" })).results, []);
  });

  test("get, update, delete and history with such a memory id", T, async () => {
    const mem = makeMemory(server);
    for (const bad of BAD) {
      await rejectsWith(() => mem.get(bad), "INVALID_INPUT");
      await rejectsWith(() => mem.update(bad, "new text"), "INVALID_INPUT");
      await rejectsWith(() => mem.delete(bad), "INVALID_INPUT");
      await rejectsWith(() => mem.history(bad), "INVALID_INPUT");
    }
  });

  test("addMessage with such a messageId, sender or groupId", T, async () => {
    const mem = makeMemory(server);
    const good = { messageId: "m1", createTime: "2025-01-15T10:00:00Z", sender: "alice", content: "hi", groupId: "g" };
    for (const bad of BAD) {
      for (const field of ["messageId", "sender", "groupId"]) {
        await rejectsWith(() => mem.addMessage({ ...good, [field]: bad }), "INVALID_INPUT");
      }
    }
  });
});

test("ordinary Unicode ids still work everywhere", T, async () => {
  const mem = makeMemory(server);
  for (const id of UNICODE) {
    const added = await mem.add("I like tea", { userId: id, agentId: id, runId: id, infer: false });
    assert.equal(added.results.length, 1);
    const all = await mem.getAll({ userId: id });
    assert.deepEqual(all.results.map((m) => m.userId), [id]);
    assert.equal((await mem.get(all.results[0].id)).userId, id);
    await mem.store(id, "value", { userId: id });
    assert.equal((await mem.getByKey(id, { userId: id })).memory, "value");
    const message = { messageId: `消息-${id}`, createTime: "2025-01-15T10:00:00Z", sender: id, content: "hi", groupId: id };
    await mem.addMessage(message);
  }
});
