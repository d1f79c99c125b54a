// The memory tiers over REST (/v1/tiers/…) in workerd: journals of flushed turns, the context window's
// running summary, dream / profile / diary / inject, and coded errors for bad input. The flush's write-behind
// is in tiers-flush.test.mjs, the cron's dreaming in tiers-cron.test.mjs.
import assert from "node:assert/strict";
import { test } from "node:test";
import { INITECH, T, assertError } from "./helpers.mjs";
import { MEMORY_TOKENS, USER1 } from "./memory-helpers.mjs";
import { DREAM, SUMMARY, chats, flushed, get, memoriesOf, post, queued } from "./tiers-helpers.mjs";
import { scriptDream, startTiers } from "./tiers-helpers.mjs";

test("journal and journals read back what was flushed, per scope and tenant", T, async (t) => {
  const { worker } = await startTiers(t);
  const first = await flushed(worker, { user_id: "alice" }, [
    { role: "user", content: "I booked   a flight to Kyoto." },
    { role: "assistant", content: "Have a great trip!" },
  ]);
  await flushed(worker, { user_id: "alice" }, "The flight leaves on May 3rd.");
  const { date } = first;

  const journal = await get(worker, "journal", { user_id: "alice" });
  assert.equal(journal.status, 200, JSON.stringify(journal.body));
  assert.equal(journal.body.date, date);
  const { markdown } = journal.body;
  assert.ok(markdown.startsWith(`# Journal ${date}\n`), markdown);
  assert.ok(markdown.includes("- **user:** I booked a flight to Kyoto.\n"), markdown);
  assert.ok(markdown.includes("- **assistant:** Have a great trip!\n"), markdown);
  assert.ok(markdown.includes("- **user:** The flight leaves on May 3rd.\n"), markdown);
  assert.equal((markdown.match(/^## /gm) ?? []).length, 2, "one section per flush");
  assert.deepEqual((await get(worker, "journal", { user_id: "alice", date })).body, journal.body);

  assertError(await get(worker, "journal", { user_id: "alice", date: "2001-01-01" }), 404, "NOT_FOUND");
  assertError(await get(worker, "journal", { user_id: "bob" }), 404, "NOT_FOUND");
  assertError(await get(worker, "journal", { user_id: "alice" }, INITECH), 404, "NOT_FOUND");

  const journals = await get(worker, "journals", { user_id: "alice" });
  assert.equal(journals.status, 200, JSON.stringify(journals.body));
  assert.equal(journals.body.results.length, 1);
  const [only] = journals.body.results;
  assert.deepEqual([only.date, only.turns, only.markdown, only.consolidated], [date, 3, markdown, false]);
  assert.match(only.hash, /^[0-9a-f]{32}$/);
  assert.deepEqual((await get(worker, "journals", { user_id: "alice", since: date })).body.results.length, 1);
  assert.deepEqual((await get(worker, "journals", { user_id: "alice", since: "2999-01-01" })).body, { results: [] });
  assert.deepEqual((await get(worker, "journals", { user_id: "alice" }, INITECH)).body, { results: [] });
});

test("context keeps the window within budget, with one running-summary call when it overflows", T, async (t) => {
  const { server, worker } = await startTiers(t);
  const scope = { user_id: "alice", run_id: "chat-1" };
  const opening = [
    { role: "user", content: "Hi, I'm Alice." },
    { role: "assistant", content: "Hello Alice!" },
  ];
  const fits = await post(worker, "context", { messages: opening, max_tokens: 200, keep_last: 2, ...scope });
  assert.equal(fits.status, 200, JSON.stringify(fits.body));
  assert.deepEqual(fits.body.messages, opening);
  assert.deepEqual([fits.body.summary, fits.body.summarized], [null, 0]);
  assert.equal(chats(server, SUMMARY).length, 0);

  const summary = "Alice is planning a trip to Kyoto.";
  server.script({ kind: "chat", match: [SUMMARY, "Hi, I'm Alice."], reply: summary, times: 1 });
  const long = (topic) => `${topic}: ${"we talked about the itinerary, temples, trains and food ".repeat(4)}`;
  const roles = ["user", "assistant"];
  const more = ["Kyoto", "Nara", "Osaka", "Kobe"].map((topic, i) => ({ role: roles[i % 2], content: long(topic) }));
  const pushed = await post(worker, "context", { messages: more, max_tokens: 160, keep_last: 2, ...scope });
  assert.equal(pushed.status, 200, JSON.stringify(pushed.body));
  const { messages, summarized, total_tokens } = pushed.body;
  assert.equal(pushed.body.summary, summary);
  // Folded: everything but the last `keep_last` turns, and more if those alone overflow; never the newest.
  assert.ok(summarized === 4 || summarized === 5, `${summarized} turns folded`);
  assert.deepEqual(messages[0], { role: "system", content: `Summary of the conversation so far:\n${summary}` });
  assert.deepEqual(messages.slice(1), [...opening, ...more].slice(summarized));
  assert.ok(total_tokens <= 160, `${total_tokens} tokens`);
  const calls = chats(server, SUMMARY);
  assert.equal(calls.length, 1);
  assert.ok(calls[0].user.includes("Hi, I'm Alice.") && calls[0].user.includes("Nara:"), calls[0].user);
  assert.ok(!calls[0].user.includes("Kobe:"), "the turns kept are not sent to the summary");

  // The window is kept per scope across requests (each request has a fresh engine).
  const again = await post(worker, "context", { messages: [], max_tokens: 160, ...scope });
  assert.deepEqual([again.body.messages, again.body.summarized], [messages, 0]);
  const other = await post(worker, "context", { messages: opening, max_tokens: 200, user_id: "alice" });
  assert.deepEqual(other.body.messages, opening, "another scope has its own window");
  assert.equal(chats(server, SUMMARY).length, 1);
});

test("dream consolidates once; profile, diary, journals and inject read it back", T, async (t) => {
  const { server, worker } = await startTiers(t);
  const alice = { user_id: "alice" };
  const { date } = await flushed(worker, alice, "I moved to Lisbon and adopted a cat named Miso.");
  assertError(await get(worker, "profile", alice), 404, "NOT_FOUND");
  assert.deepEqual((await get(worker, "diary", alice)).body, { results: [] });
  const empty = await get(worker, "inject", { ...alice, max_tokens: 200 });
  assert.deepEqual(empty.body, { text: "", total_tokens: 0, profile: false, memories: [] });

  const profile = "# Alice\n- Lives in Lisbon\n- Has a cat named Miso";
  const fact = "User lives in Lisbon";
  scriptDream(server, "Lisbon", { profile, facts: [fact], reason: "Alice moved and adopted a cat." });
  const dreamt = await post(worker, "dream", alice);
  assert.equal(dreamt.status, 200, JSON.stringify(dreamt.body));
  assert.equal(dreamt.body.dreamed, true);
  assert.deepEqual(dreamt.body.journals, [date]);
  assert.equal(dreamt.body.profile.markdown, profile);
  assert.equal(typeof dreamt.body.profile.updated_at, "string");
  assert.deepEqual(dreamt.body.results.map((event) => [event.event, event.memory]), [["ADD", fact]]);
  assert.equal(dreamt.body.reason, "Alice moved and adopted a cat.");
  assert.equal(chats(server, DREAM).length, 1);

  const second = await post(worker, "dream", { ...alice, lookback_days: 3 });
  assert.equal(second.status, 200, JSON.stringify(second.body));
  assert.deepEqual([second.body.dreamed, second.body.journals, second.body.results], [false, [], []]);
  assert.equal(chats(server, DREAM).length, 1, "a consolidated journal is never sent again");

  const read = await get(worker, "profile", alice);
  assert.deepEqual(read.body, dreamt.body.profile);
  const diary = (await get(worker, "diary", alice)).body.results;
  assert.equal(diary.length, 1);
  assert.deepEqual([diary[0].journals, diary[0].profile_changed, diary[0].reason], [[date], true, dreamt.body.reason]);
  assert.deepEqual(diary[0].events.map((event) => event.memory), [fact]);
  assert.equal((await get(worker, "journals", alice)).body.results[0].consolidated, true);
  assert.deepEqual(await memoriesOf(worker, "alice"), [fact]);

  const injected = (await get(worker, "inject", { ...alice, max_tokens: 200 })).body;
  assert.ok(injected.text.startsWith("<memory>\n") && injected.text.endsWith("</memory>"), injected.text);
  assert.ok(injected.text.includes("- Lives in Lisbon") && injected.text.includes(fact), injected.text);
  assert.equal(injected.profile, true);
  assert.ok(injected.total_tokens > 0 && injected.total_tokens <= 200, `${injected.total_tokens}`);
  assert.deepEqual(injected.memories.map((item) => item.memory), [fact]);
  assert.equal(injected.memories[0].user_id, "alice");
  const tight = (await get(worker, "inject", { ...alice, max_tokens: 12 })).body;
  assert.ok(tight.total_tokens <= 12 && tight.text.length < injected.text.length, JSON.stringify(tight));
});

test("bad input, foreign tokens and failing models get coded errors", T, async (t) => {
  const { server, worker } = await startTiers(t, { MEMORY_TOKENS: JSON.stringify(MEMORY_TOKENS) });
  const alice = { user_id: "alice" };
  const turns = [{ role: "user", content: "Hello" }];
  assertError(await post(worker, "flush", { messages: turns }), 400, "SCOPE_REQUIRED");
  assertError(await post(worker, "flush", { messages: 5, ...alice }), 400, "INVALID_INPUT");
  assertError(await post(worker, "flush", { messages: [], ...alice }), 400, "INVALID_INPUT");
  assertError(await post(worker, "flush", { messages: [{ role: "user" }], ...alice }), 400, "INVALID_INPUT");
  assertError(await post(worker, "flush", alice), 400, "INVALID_INPUT");
  assertError(await post(worker, "flush", { messages: turns, userId: "alice" }), 400, "INVALID_INPUT");
  assertError(await post(worker, "flush", { messages: turns, max_tokens: 5, ...alice }), 400, "INVALID_INPUT");
  assertError(await worker.call("POST", "/v1/tiers/flush", { raw: "{not json" }), 400, "INVALID_JSON");
  assert.equal(await queued(worker), 0, "nothing was queued");
  assertError(await get(worker, "journal", alice), 404, "NOT_FOUND");

  const noBudget = await post(worker, "context", { messages: turns, ...alice });
  assertError(noBudget, 400, "INVALID_INPUT");
  assert.match(noBudget.body.error.message, /max_tokens/);
  assertError(await post(worker, "context", { messages: turns, max_tokens: 0, ...alice }), 400, "INVALID_INPUT");
  for (const bad of [{ keep_last: 1.5 }, { keep_last: 0 }, { date: "2026-01-01" }, { maxTokens: 9 }]) {
    const response = await post(worker, "context", { messages: turns, max_tokens: 9, ...bad, ...alice });
    assertError(response, 400, "INVALID_INPUT");
  }
  assertError(await post(worker, "context", { messages: turns, max_tokens: 9 }), 400, "SCOPE_REQUIRED");
  assertError(await get(worker, "journal", { ...alice, date: "yesterday" }), 400, "INVALID_INPUT");
  const unused = await get(worker, "journal", { ...alice, max_tokens: "5" });
  assertError(unused, 400, "INVALID_INPUT");
  assert.match(unused.body.error.message, /max_tokens/);
  assertError(await get(worker, "journals", { ...alice, since: "2026-13-01" }), 400, "INVALID_INPUT");
  assertError(await get(worker, "journals", { ...alice, limit: "5" }), 400, "INVALID_INPUT");
  assertError(await get(worker, "inject", alice), 400, "INVALID_INPUT");
  assertError(await get(worker, "inject", { ...alice, max_tokens: "lots" }), 400, "INVALID_INPUT");
  assertError(await get(worker, "profile", {}), 400, "SCOPE_REQUIRED");
  assertError(await get(worker, "diary", { agent_id: "" }), 400, "SCOPE_REQUIRED");
  assertError(await post(worker, "dream", { ...alice, lookback_days: -1 }), 400, "INVALID_INPUT");
  assertError(await post(worker, "dream", {}), 400, "SCOPE_REQUIRED");
  assertError(await worker.call("GET", "/v1/tiers/flush"), 404, "NOT_FOUND");
  assertError(await worker.call("GET", "/v1/tiers/nothing?user_id=alice"), 404, "NOT_FOUND");
  assertError(await worker.call("GET", "/v1/tiers/profile?user_id=alice", { token: "nope" }), 401, "UNAUTHORIZED");
  assertError(await post(worker, "flush", { messages: turns, ...alice }, USER1), 403, "FORBIDDEN");

  // Model failures: the summary and the dream answer with the model's code (rate limits as 429).
  server.script({ kind: "chat", match: [SUMMARY], status: 500, times: 1 });
  const long = { role: "user", content: "word ".repeat(200) };
  assertError(await post(worker, "context", { messages: [long, long], max_tokens: 50, ...alice }), 502, "LLM_HTTP");
  await flushed(worker, alice, "I live in Porto.");
  server.script({ kind: "chat", match: [DREAM], status: 429, times: 1 });
  assertError(await post(worker, "dream", alice), 429, "LLM_HTTP");
  assertError(await get(worker, "profile", alice), 404, "NOT_FOUND");
});
