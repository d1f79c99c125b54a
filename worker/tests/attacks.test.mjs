// Hostile requests: oversized and deeply nested bodies, huge arrays, invalid UTF-8, wrong
// content types, path traversal in ids, over-long ids — each answered 4xx with a coded body, never 5xx, and
// nothing stored.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { T, startServer, startWorker } from "./helpers.mjs";

let server;
let worker;
before(async () => {
  server = await startServer();
  worker = await startWorker(server, { vars: { MAX_BODY_BYTES: String(512 * 1024) } });
});
after(async () => {
  await worker?.dispose();
  await server?.close();
});

/** 4xx with a coded body (`{error: {code}}`, or mem0's `{detail, code}` under /mem0). */
function refused(response, label) {
  assert.ok(response.status >= 400 && response.status < 500, `${label}: ${response.status} ${JSON.stringify(response.body)}`);
  const code = response.body?.error?.code ?? response.body?.code;
  assert.equal(typeof code, "string", `${label}: no code in ${JSON.stringify(response.body)}`);
}

const json = { "content-type": "application/json" };
const deep = (n) => `${"[".repeat(n)}${"]".repeat(n)}`;
const deepObject = (n) => `${'{"a":'.repeat(n)}1${"}".repeat(n)}`;

const cases = [
  ["deep array nesting", "POST", "/v1/memories/", { raw: deep(10_000), headers: json }],
  ["deep object nesting", "POST", "/v1/memories/", { raw: deepObject(10_000), headers: json }],
  ["deep filters", "POST", "/v1/memories/search/", { raw: `{"query":"x","user_id":"u","filters":${deepObject(10_000)}}`, headers: json }],
  ["10k messages", "POST", "/v1/memories/", { body: { user_id: "u", infer: false, messages: Array.from({ length: 10_000 }, () => ({ role: "user", content: "x" })) } }],
  ["10k-element filter list", "POST", "/v1/memories/search/", { body: { query: "x", user_id: "u", filters: { AND: Array.from({ length: 10_000 }, () => ({ category: "x" })) } } }],
  ["invalid UTF-8", "POST", "/v1/memories/", { raw: new Uint8Array([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x3a, 0x31, 0x7d]), headers: json }],
  ["text/plain body", "POST", "/v1/memories/", { raw: "messages=hi&user_id=u", headers: { "content-type": "text/plain" } }],
  ["form body", "POST", "/v1/memories/", { raw: "messages=hi&user_id=u", headers: { "content-type": "application/x-www-form-urlencoded" } }],
  ["JSON sent as multipart", "POST", "/v1/memories/", { raw: JSON.stringify({ messages: "hi", user_id: "u", infer: false }), headers: { "content-type": "multipart/form-data; boundary=x" } }],
  ["mem0: JSON sent as a form", "POST", "/mem0/v3/memories/add/", { raw: JSON.stringify({ messages: "hi", user_id: "u", infer: false }), headers: { "content-type": "application/x-www-form-urlencoded" } }],
  ["conversation API: JSON sent as XML", "POST", "/api/v1/memories", { raw: JSON.stringify({ message_id: "m", create_time: "2025-03-03T09:00:00Z", sender: "a", content: "hi" }), headers: { "content-type": "application/xml" } }],
  ["path traversal id", "GET", "/v1/memories/..%2F..%2Ft%2Finitech%2Fmem/", {}],
  ["path traversal history", "GET", "/v1/memories/..%2F..%2F/history/", {}],
  ["129-char agent id", "POST", "/v1/memories/", { body: { agent_id: "a".repeat(129), infer: false, messages: "hi" } }],
  ["null body", "POST", "/v1/memories/", { raw: "null", headers: json }],
  ["mem0: deep nesting", "POST", "/mem0/v3/memories/add/", { raw: deep(10_000), headers: json }],
  ["mem0: traversal id", "GET", "/mem0/v1/memories/..%2F..%2Ft%2Finitech/", {}],
];

test("hostile requests are 4xx with a code, never 5xx, and store nothing", T, async () => {
  const failures = [];
  for (const [label, method, path, options] of cases) {
    const response = await worker.call(method, path, options);
    try {
      refused(response, label);
    } catch (error) {
      failures.push(error.message);
    }
  }
  assert.deepEqual(failures, []);
  const listed = await worker.call("GET", "/v1/memories/?user_id=u");
  assert.deepEqual(listed.body.results, [], "nothing stored");
});

test("MEMORY_TOKENS may hold SHA-256 digests instead of tokens; a digest presented as a token is refused", T, async () => {
  const { createHash } = await import("node:crypto");
  const token = "tok-digested-0123456789";
  const digest = createHash("sha256").update(token).digest("hex");
  const tokens = JSON.stringify({ [`sha256:${digest}`]: "acme", "tok-plain-0123456789": "initech" });
  const hashed = await startWorker(server, { vars: { MEMORY_TOKENS: tokens } });
  try {
    assert.equal((await hashed.call("GET", "/v1/memories/?user_id=u", { token })).status, 200);
    assert.equal((await hashed.call("GET", "/v1/memories/?user_id=u", { token: "tok-plain-0123456789" })).status, 200);
    for (const wrong of [`sha256:${digest}`, digest, `${token}x`]) {
      assert.equal((await hashed.call("GET", "/v1/memories/?user_id=u", { token: wrong })).status, 401, wrong);
    }
    const mem0 = await hashed.call("GET", "/mem0/v1/ping/", { token: null, headers: { authorization: `Token ${token}` } });
    assert.equal(mem0.body.org_id, "acme");
  } finally {
    await hashed.dispose();
  }
  const broken = await startWorker(server, { vars: { MEMORY_TOKENS: JSON.stringify({ "sha256:xyz": "acme" }) } });
  try {
    const response = await broken.call("GET", "/v1/memories/?user_id=u", { token: "anything" });
    assert.equal(response.status, 500);
    assert.equal(response.body.error.code, "INVALID_CONFIG");
  } finally {
    await broken.dispose();
  }
});
