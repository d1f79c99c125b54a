// Concurrent add()s of one scope that extract the same fact store it once, in either pipeline: the fast
// pipeline's decision runs beside the facts' embedding, so several calls may decide to ADD the fact before
// any of them has committed; the commit checks again.
import { test } from "node:test";
import assert from "node:assert/strict";

import { T, makeMemory, extraction, decision, addsFor, scriptedServer } from "./helpers.mjs";

const server = scriptedServer();
const FACT = "User likes green tea";

for (const pipeline of ["fast", "exact"]) {
  test(`8 concurrent add()s extracting the same fact store it once (${pipeline} pipeline, 5 runs)`, T, async () => {
    for (let run = 0; run < 5; run++) {
      server.reset();
      server.script([
        { kind: "embedding", match: FACT, delayMs: 20 }, // the facts' vectors come after the decisions
        extraction("green tea", [FACT]),
        decision(FACT, addsFor([FACT])),
      ]);
      const mem = makeMemory(server, { pipeline });
      const scope = { userId: `u${run}` };
      const results = await Promise.all(
        Array.from({ length: 8 }, (_, i) => mem.add(`I like green tea (${i}).`, scope)),
      );
      const stored = (await mem.getAll(scope)).results;
      assert.deepEqual(stored.map((m) => m.memory), [FACT], `run ${run}`);
      const events = results.flatMap((r) => r.results);
      assert.equal(events.filter((e) => e.event === "ADD").length, 1, `run ${run}: ${JSON.stringify(events)}`);
      assert.ok(events.every((e) => e.id === stored[0].id), `run ${run}: every event names the stored memory`);
    }
  });
}
