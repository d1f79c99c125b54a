// docs/worker.md's migration block, as a request to the Worker in workerd (Miniflare): its curl line's method,
// path and tenant token go to a Worker with STORAGE = "do" over the KV data of a tenant that has more keys than
// one KV list page. The first answer is what the comment claims (read from the page), and calling again with
// its cursor copies the rest and answers "done": true.
import assert from "node:assert/strict";
import { test } from "node:test";
import { blocksRunBy, claimedOutputs } from "../../tests/node/docs-pages.mjs";
import { ACME, T, seed, startServer, startWorker, tempDir } from "./helpers.mjs";

const [block] = blocksRunBy("worker/tests/docs-migrate.test.mjs");
/** Keys written straight into KV under the tenant's prefix, beside the seeded memory's own. */
const EXTRA = 1_100;

test("docs/worker.md: POST /v1/storage/migrate copies one KV page per call and answers as the comment says", { ...T, timeout: 120_000 }, async (t) => {
  assert.equal(block?.page, "docs/worker.md", "the block is marked run by this file");
  const curl = /^curl -X (\w+) -H "Authorization: Bearer \$TOKEN" https:\/\/<worker>(\S+)$/m.exec(block.code);
  assert.ok(curl, "the block's curl line names a method, the tenant token and a path");
  const [claim] = claimedOutputs(block);
  const shown = JSON.parse(claim.text.split("→")[0].trim());

  const server = await startServer();
  t.after(() => server.close());
  const persist = tempDir(t);
  const onKv = await startWorker(server, { persist, vars: { STORAGE: "kv" } });
  await seed(onKv.call, server, ["User likes tea"], { user_id: "alice" });
  const kv = await onKv.rawKv();
  for (let i = 0; i < EXTRA; i++) await kv.put(`t/acme/docs-migrate/${String(i).padStart(4, "0")}`, "x");
  await onKv.dispose();

  const onDo = await startWorker(server, { persist, vars: { STORAGE: "do" } });
  t.after(() => onDo.dispose());
  const first = await onDo.call(curl[1], curl[2], { token: ACME });
  assert.equal(first.status, 200, JSON.stringify(first.body));
  // {"copied": 1000, "cursor": "…", "done": false}  → repeat with ?cursor=… until "done": true
  assert.deepEqual(Object.keys(first.body).sort(), Object.keys(shown).sort());
  assert.deepEqual([first.body.copied, first.body.done, typeof first.body.cursor], [shown.copied, shown.done, "string"]);
  const rest = await onDo.call(curl[1], `${curl[2]}?cursor=${encodeURIComponent(first.body.cursor)}`, { token: ACME });
  assert.equal(rest.status, 200, JSON.stringify(rest.body));
  assert.equal(rest.body.done, true);
  assert.ok(rest.body.copied > EXTRA - shown.copied, `the second page holds the rest: ${JSON.stringify(rest.body)}`);
});
