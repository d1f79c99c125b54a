// The Worker load check: REQUESTS requests at CONCURRENCY across TENANTS tenants (10 users each), in pairs:
// an `infer: false` add, then a list of the same scope that must contain it (read-your-writes on every pair).
// Afterwards every acknowledged add must still be listed (no lost writes). Counts statuses; never throws on
// a bad answer, it counts it.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startWorker } from "../../worker/tests/helpers.mjs";

const REQUESTS = 2000;
const CONCURRENCY = 50;
const TENANTS = 5;
const USERS = 10;

export async function loadCheck(server, storage, { requests = REQUESTS, concurrency = CONCURRENCY } = {}) {
  const tokens = Object.fromEntries(Array.from({ length: TENANTS }, (_, i) => [`tok-load-${i}-0123456789`, `load-${i}`]));
  const persist = mkdtempSync(join(tmpdir(), "memwasm-load-"));
  const worker = await startWorker(server, { storage, persist, vars: { STORAGE: storage, MEMORY_TOKENS: JSON.stringify(tokens) } });
  const names = Object.keys(tokens);
  const statuses = {};
  const count = (status) => (statuses[status] = (statuses[status] ?? 0) + 1);
  const added = [];
  let staleReads = 0;
  let next = 0;
  const pairs = requests / 2;
  const started = performance.now();
  try {
    const runner = async () => {
      while (next < pairs) {
        const i = next++;
        const token = names[i % TENANTS];
        const user = `user-${Math.floor(i / TENANTS) % USERS}`;
        const add = await worker.call("POST", "/v1/memories/", {
          token,
          body: { messages: `Load fact ${i} of ${user}`, user_id: user, infer: false },
        });
        count(add.status);
        const id = add.status === 200 ? add.body.results[0]?.id : undefined;
        if (id) added.push({ token, user, id });
        const list = await worker.call("GET", `/v1/memories/?user_id=${user}&limit=1000`, { token });
        count(list.status);
        if (id && !(list.body.results ?? []).some((m) => m.id === id)) staleReads++;
      }
    };
    await Promise.all(Array.from({ length: concurrency }, runner));
    const seconds = (performance.now() - started) / 1000;
    let lost = 0;
    for (const token of names) {
      for (let u = 0; u < USERS; u++) {
        const user = `user-${u}`;
        const listed = await worker.call("GET", `/v1/memories/?user_id=${user}&limit=1000`, { token });
        const ids = new Set((listed.body.results ?? []).map((m) => m.id));
        lost += added.filter((m) => m.token === token && m.user === user && !ids.has(m.id)).length;
      }
    }
    const errors5xx = Object.entries(statuses).filter(([s]) => Number(s) >= 500).reduce((a, [, n]) => a + n, 0);
    return { requests, concurrency, tenants: TENANTS, seconds: Number(seconds.toFixed(1)), statuses, errors5xx, acknowledged: added.length, lost, staleReads };
  } finally {
    await worker.dispose();
    rmSync(persist, { recursive: true, force: true });
  }
}
