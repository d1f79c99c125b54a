// Kill and resume: a process importing an archive into a SQLite file is killed with SIGKILL in the middle of
// the import; the same import run again completes it, and the memories equal a clean import's (what the
// killed process committed is replayed at no model cost, the rest added once); a third run adds nothing.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { EXTRACT, Memory, makeMemory, scriptedServer, testConfig } from "./helpers.mjs";
import { databaseFolder } from "./sqlite-support.mjs";
import { contents, fixture, fixturePath, scriptFacts } from "./import-support.mjs";
import { childLines } from "./child-lines.mjs";

const server = scriptedServer();
const newFile = databaseFolder();
const CHILD = fileURLToPath(new URL("./import-kill.child.mjs", import.meta.url));
const ARCHIVE = fixturePath("chatgpt-conversations.json");
const alice = { userId: "alice" };

/** Runs the child on `path`; `onLine(line, child)` sees each line it prints. */
function runChild(path, onLine = () => {}) {
  const child = spawn(process.execPath, [CHILD, path, server.baseUrl, ARCHIVE], { stdio: ["ignore", "pipe", "inherit"] });
  return childLines(child, onLine);
}

const reportOf = ({ lines }) => JSON.parse(lines.find((line) => line.startsWith("report ")).slice(7));

test("SIGKILL in the middle of an import into SQLite; the next import completes it as a clean one would", { timeout: 60_000 }, async () => {
  scriptFacts(server, { delayMs: 40 }); // the models answer slowly, so the kill lands inside a chunk
  const clean = makeMemory(server);
  await clean.importConversations(fixture("chatgpt-conversations.json"), { ...alice, chunkMessages: 1 });
  const expected = await contents(clean, alice);

  const path = newFile();
  const killed = await runChild(path, (line, child) => line === "chunk 2" && child.kill("SIGKILL"));
  assert.equal(killed.signal, "SIGKILL");
  assert.ok(!killed.lines.some((line) => line.startsWith("report ")), "killed before the end");

  const calls = server.requests("chat").length;
  const resumed = reportOf(await runChild(path));
  assert.ok(resumed.replayed >= 2 && resumed.replayed < 6, `the committed chunks replay: ${JSON.stringify(resumed)}`);
  const sent = server.requests("chat").slice(calls).map((r) => r.text).filter((text) => text.includes(EXTRACT));
  assert.ok(!sent.some((text) => text.includes("work from home as a translator")), "the first chunk (committed) was not sent again");

  const memory = await Memory.open(testConfig(server, { storage: { provider: "sqlite", config: { path } } }));
  assert.deepEqual(await contents(memory, alice), expected);
  memory.close();

  const before = server.requests().length;
  const third = reportOf(await runChild(path));
  assert.deepEqual([third.replayed, third.facts, third.modelCalls], [6, 0, 0]);
  assert.equal(server.requests().length, before, "no model call");
});
