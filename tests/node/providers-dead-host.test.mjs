// Model hosts that are down, through the real `fetch` (docs/timeouts-and-retries.md): a host that accepts
// connections and never answers costs a call seconds, not minutes (after `connectTimeoutMs` without an answer
// one liveness probe goes to its origin; no answer to it either means the host is down, and that is not
// retried); a host found down is remembered per origin (the circuit breaker): for `coolDownMs` calls to it
// fail at once with LLM_UNAVAILABLE / EMBEDDING_UNAVAILABLE and no request, searches rank by keywords at once
// and say why, then one call tries again. A slow host that answers the probe is waited for, up to `timeoutMs`.
// The hosts here are `net.Server`s on 127.0.0.1 that count the requests they get; time is the config's
// `now` (no test sleeps through a cool-down).
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import net from "node:net";

import { flakyHost as hostOn } from "../support/flaky-host.mjs";
import { EXTRACT, START, addsFor, decision, extraction, makeMemory, scriptedServer, warningCodes } from "./helpers.mjs";

const server = scriptedServer();

/** The old defaults held add() 247 s and a search 127 s on a silent host: this bound is far below both. */
const BOUNDED = { timeout: 20_000 };
const iso = (ms) => new Date(ms).toISOString();
/** A host that is down (see flaky-host.mjs), or up in front of the scripted server. */
const flakyHost = () => hostOn(server.port);

/** A Memory whose LLM and embedder are reached at these base URLs (the scripted server's by default). */
function memoryAt({ llmUrl = server.baseUrl, embedderUrl = server.baseUrl, llm = {}, embedder = {}, ...rest } = {}) {
  return makeMemory(server, { llm: { baseUrl: llmUrl, ...llm }, embedder: { baseUrl: embedderUrl, ...embedder }, ...rest });
}

async function rememberTea(mem) {
  const added = await mem.add("User likes green tea", { userId: "u", infer: false });
  assert.deepEqual(warningCodes(added), []);
}

describe("a host that accepts connections and never answers", () => {
  test("with the default settings, add() and search() end in seconds, and a dead host is not retried", BOUNDED, async () => {
    const [llmHost, embedderHost] = [await flakyHost(), await flakyHost()];
    const writer = memoryAt({ llmUrl: `${llmHost.url}/v1`, retry: {} });
    embedderHost.setDown(false);
    const reader = memoryAt({ embedderUrl: `${embedderHost.url}/v1`, retry: {} });
    await rememberTea(reader);
    embedderHost.setDown(true);
    try {
      const [added, found] = await Promise.all([
        writer.add("I like chess", { userId: "u" }),
        reader.search("green tea", { userId: "u" }),
      ]);
      assert.deepEqual(warningCodes(added), ["EXTRACTION_FAILED"]);
      assert.equal(added.warnings[0].cause, "LLM_NETWORK", added.warnings[0].message);
      assert.match(added.warnings[0].message, /no response within 5000 ms.*liveness probe/);
      assert.equal(llmHost.requests, 2, "the request and one probe: a dead host is not retried");

      assert.deepEqual([found.method, found.results[0]?.memory], ["keyword", "User likes green tea"]);
      assert.deepEqual(warningCodes(found), ["EMBEDDING_UNAVAILABLE"]);
      assert.equal(found.warnings[0].cause, "EMBEDDING_NETWORK", found.warnings[0].message);
      assert.equal(embedderHost.requests, 2);
    } finally {
      await Promise.all([llmHost.close(), embedderHost.close()]);
    }
  });

  test("is remembered: searches fall back at once without a request, until one tries again after the cool-down", BOUNDED, async () => {
    const host = await flakyHost();
    host.setDown(false);
    const clock = { t: START };
    const mem = memoryAt({ embedderUrl: `${host.url}/v1`, embedder: { timeoutMs: 300 }, now: () => clock.t });
    await rememberTea(mem);
    host.setDown(true);
    try {
      const first = await mem.search("green tea", { userId: "u" });
      assert.deepEqual([first.method, warningCodes(first)], ["keyword", ["EMBEDDING_UNAVAILABLE"]]);
      assert.equal(first.warnings[0].cause, "EMBEDDING_NETWORK", first.warnings[0].message);
      assert.equal(host.requests, 2, "the request and one probe, no retries");

      const second = await mem.search("green tea", { userId: "u" });
      assert.deepEqual([second.method, second.results[0]?.memory], ["keyword", "User likes green tea"]);
      assert.deepEqual(warningCodes(second), ["EMBEDDING_UNAVAILABLE"]);
      const [open] = second.warnings;
      assert.equal(open.cause, "EMBEDDING_UNAVAILABLE", open.message);
      assert.ok(open.message.includes(host.url), open.message);
      assert.ok(open.message.includes(`since ${iso(START)}`), open.message);
      assert.ok(open.message.includes(`again from ${iso(START + 30_000)}`), open.message);
      assert.equal(host.requests, 2, "no request while the breaker is open");

      clock.t += 29_999;
      await mem.search("green tea", { userId: "u" });
      assert.equal(host.requests, 2, "still cooling down");

      clock.t += 1; // the cool-down is over, the host still down: one call tries, and the breaker opens again
      const retried = await mem.search("green tea", { userId: "u" });
      assert.equal(retried.warnings[0].cause, "EMBEDDING_NETWORK", retried.warnings[0].message);
      assert.equal(host.requests, 4);
      const reopened = await mem.search("green tea", { userId: "u" });
      assert.equal(reopened.warnings[0].cause, "EMBEDDING_UNAVAILABLE");
      assert.ok(reopened.warnings[0].message.includes(`since ${iso(START)}`), "the outage started at the first failure");
      assert.equal(host.requests, 4);

      host.setDown(false); // back: after the next cool-down, search ranks by vectors again
      clock.t += 30_000;
      const back = await mem.search("green tea", { userId: "u" });
      assert.deepEqual([back.method, back.results[0]?.memory, back.warnings], ["hybrid", "User likes green tea", undefined]);
      const again = await mem.search("green tea", { userId: "u" });
      assert.deepEqual([again.method, again.warnings], ["hybrid", undefined]);
      assert.equal(server.requests("embedding").filter((r) => [].concat(r.body.input).includes("green tea")).length, 2);
    } finally {
      await host.close();
    }
  });

  test("the breaker is per host across Memory instances; add() warns at once with LLM_UNAVAILABLE", BOUNDED, async () => {
    const host = await flakyHost();
    const clock = { t: START };
    const config = { llmUrl: `${host.url}/v1`, llm: { timeoutMs: 300 }, now: () => clock.t };
    try {
      const first = await memoryAt(config).add("I like chess", { userId: "u" });
      assert.equal(first.warnings[0].cause, "LLM_NETWORK", first.warnings[0].message);
      const other = await memoryAt(config).add("I like chess", { userId: "u" });
      assert.deepEqual(warningCodes(other), ["EXTRACTION_FAILED"]);
      assert.equal(other.warnings[0].cause, "LLM_UNAVAILABLE", other.warnings[0].message);
      assert.equal(host.requests, 2, "the second instance sent nothing");
      // Its breaker turned off, an instance sends anyway.
      const unguarded = memoryAt({ ...config, llm: { timeoutMs: 300, coolDownMs: 0 } });
      assert.equal((await unguarded.add("I like chess", { userId: "u" })).warnings[0].cause, "LLM_NETWORK");
      assert.equal(host.requests, 4);
    } finally {
      await host.close();
    }
  });
});

describe("a host that refuses connections", () => {
  test("fails fast with a network error, not retried, then the breaker answers", BOUNDED, async () => {
    const closed = net.createServer();
    await new Promise((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${closed.address().port}`;
    await new Promise((resolve) => closed.close(resolve));
    const mem = memoryAt({ llmUrl: `${url}/v1`, retry: { maxRetries: 3, baseDelayMs: 5_000 } });
    const first = await mem.add("I like chess", { userId: "u" });
    assert.equal(first.warnings[0].cause, "LLM_NETWORK", first.warnings[0].message);
    const second = await mem.add("I like chess", { userId: "u" });
    assert.equal(second.warnings[0].cause, "LLM_UNAVAILABLE", second.warnings[0].message);
    assert.ok(second.warnings[0].message.includes(url), second.warnings[0].message);
  });
});

describe("a slow host that answers the probe", () => {
  test("is waited for past connectTimeoutMs, up to timeoutMs", BOUNDED, async () => {
    server.script([
      extraction("I like chess", ["User likes chess"], { delayMs: 1_500 }),
      decision("User likes chess", addsFor(["User likes chess"])),
    ]);
    const mem = memoryAt({ llm: { connectTimeoutMs: 200 } });
    const added = await mem.add("I like chess", { userId: "u" });
    assert.deepEqual([added.warnings, added.results.map((r) => r.memory)], [[], ["User likes chess"]]);
    const probes = server.requests("/").filter((r) => r.method === "GET");
    assert.ok(probes.length >= 1, "a probe went to the origin");
    assert.equal(server.requests("chat").filter((r) => String(r.system ?? r.text).includes(EXTRACT)).length, 1);
  });
});
