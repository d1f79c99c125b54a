// A tenant's vectors remember the embedding model that made them: a worker restarted over the same storage with
// another EMBEDDER_MODEL says so on every response of the tenant (a `warnings` entry and the x-memwasm-warning
// header), naming both models and the fix, until POST /v1/reembed/ re-embeds the tenant with the new model.
import assert from "node:assert/strict";
import { test } from "node:test";
import { ACME, INITECH, T, seed, startServer, startWorker, tempDir } from "./helpers.mjs";

/** The EMBEDDING_MODEL_CHANGED entries of a response's body and its header. */
function modelWarnings(response) {
  const warnings = (response.body?.warnings ?? []).filter((w) => w.code === "EMBEDDING_MODEL_CHANGED");
  return { warnings, header: response.headers.get("x-memwasm-warning") };
}

// With one object per user (DO_SHARDS = "scope"), the re-embed visits every user's object.
for (const [storage, shards] of [["kv", "tenant"], ["do", "tenant"], ["do", "scope"]]) {
  const mode = shards === "scope" ? `${storage} (DO_SHARDS = "scope")` : storage;
  test(`${mode}: a worker restarted with another embedding model warns until the tenant is re-embedded`, T, async (t) => {
    const server = await startServer();
    t.after(() => server.close());
    const persist = tempDir(t);
    const restart = async (model) => startWorker(server, { persist, storage, vars: { EMBEDDER_MODEL: model, DO_SHARDS: shards } });

    const first = await restart("embed-old");
    await seed(first.call, server, ["User likes hiking"], { user_id: "alice" });
    const same = await first.call("GET", "/v1/memories/?user_id=alice");
    assert.deepEqual(modelWarnings(same), { warnings: [], header: null });
    await first.dispose();

    const second = await restart("embed-new");
    const listed = await second.call("GET", "/v1/memories/?user_id=alice");
    assert.equal(listed.status, 200, JSON.stringify(listed.body));
    assert.equal(listed.body.results[0].memory, "User likes hiking", "the memories are still served");
    const { warnings, header } = modelWarnings(listed);
    assert.equal(warnings.length, 1, JSON.stringify(listed.body));
    for (const part of ["openai/embed-old (64 dimensions)", "openai/embed-new (64 dimensions)", "POST /v1/reembed/"]) {
      assert.ok(warnings[0].message.includes(part), `${part} in ${warnings[0].message}`);
    }
    assert.ok(header?.startsWith("EMBEDDING_MODEL_CHANGED: "), `header: ${header}`);
    const search = await second.call("GET", "/v1/memories/search/?q=hiking&user_id=alice");
    assert.equal(modelWarnings(search).warnings.length, 1, "every response of the tenant says so");
    const other = await second.call("GET", "/v1/memories/?user_id=bob", { token: INITECH });
    assert.deepEqual(modelWarnings(other), { warnings: [], header: null }, "another tenant's data is not affected");

    const reembedded = await second.call("POST", "/v1/reembed/", { token: ACME });
    assert.equal(reembedded.status, 200, JSON.stringify(reembedded.body));
    assert.equal(reembedded.body.memories, 1);
    const after = await second.call("GET", "/v1/memories/search/?q=hiking&user_id=alice");
    assert.deepEqual(modelWarnings(after), { warnings: [], header: null });
    assert.equal(after.body.results[0].memory, "User likes hiking");
    await second.dispose();

    const back = await restart("embed-old");
    t.after(() => back.dispose());
    const again = await back.call("GET", "/v1/memories/?user_id=alice");
    assert.equal(modelWarnings(again).warnings.length, 1, "the record now names the new model");
    assert.ok(modelWarnings(again).warnings[0].message.includes("openai/embed-new (64 dimensions)"));
  });
}
