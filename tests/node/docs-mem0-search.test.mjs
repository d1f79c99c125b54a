// docs/mem0.md's search block runs as written against the scripted server, with HOME a folder of the test's
// own: its `new Memory()` of memwasm/mem0 keeps memories in ~/.mem0/vector_store.db, as mem0 does, and a
// memory put there before finds its way into what the block prints (text, score and BM25 score).
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { Memory } from "memwasm/mem0";
import { T, scriptedServer } from "./helpers.mjs";
import { blocksRunBy } from "./docs-pages.mjs";
import { runBlock, withEnv } from "./docs-run.mjs";
import { scratchFolder } from "./sqlite-support.mjs";

const server = scriptedServer();
const home = scratchFolder();
const [block] = blocksRunBy("tests/node/docs-mem0-search.test.mjs");
const QUERY = "What do you know about me?";
const STORED = "I love sci-fi movies";

test("docs/mem0.md: new Memory() of memwasm/mem0 searches ~/.mem0/vector_store.db and prints what it finds", T, async () => {
  assert.equal(block?.page, "docs/mem0.md", "the block is marked run by this file");
  assert.ok(block.code.includes(JSON.stringify(QUERY)));
  // A model that finds the stored memory near the question (the stand-in alone shares no word between them).
  const near = Array.from({ length: 64 }, (_, i) => (i === 0 ? 1 : 0));
  server.script([{ kind: "embedding", match: QUERY, vector: near }, { kind: "embedding", match: STORED, vector: near }]);
  const said = [];
  await withEnv({ HOME: home, OPENAI_API_KEY: "test-key", OPENAI_BASE_URL: server.baseUrl }, async () => {
    const before = new Memory();
    await before.add(STORED, { userId: "alice", infer: false });
    before.close();
    assert.ok(existsSync(join(home, ".mem0", "vector_store.db")), "mem0's file under HOME");
    const memory = await runBlock(`${block.code}\nreturn memory;`, {
      __import: (specifier) => import(specifier),
      console: { log: (...args) => said.push(args) },
    });
    memory.close();
  });
  assert.equal(said.length, 1, "one memory found");
  const [text, score, bm25] = said[0];
  assert.equal(text, STORED);
  assert.ok(score >= 0.2 && score <= 1, `score ${score} passes the threshold`);
  assert.equal(typeof bm25, "number", "explain: true gives score_details.bm25Score");
  const [search] = server.requests("embedding").filter((r) => r.inputs.includes(QUERY));
  assert.equal(search.headers.authorization, "Bearer test-key");
});
