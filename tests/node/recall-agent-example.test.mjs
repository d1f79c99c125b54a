// examples/agent-loop.mjs runs offline against the scripted server: tool calls are executed in the
// user's scope, the second turn's system prompt carries the injected <memory> block (formatForInjection),
// the conversation goes through a context window, flushed exchanges are written in the background, and a
// dream writes the core profile.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";

const example = fileURLToPath(new URL("../../examples/agent-loop.mjs", import.meta.url));

test("the agent-loop example runs: tools, context, injection, background writes and a dream", { timeout: 60_000 }, async () => {
  const { stdout } = await new Promise((resolve, reject) =>
    execFile(process.execPath, [example], { timeout: 50_000 }, (error, stdout, stderr) =>
      error ? reject(new Error(`${error.message}\n${stderr}`)) : resolve({ stdout, stderr }),
    ),
  );
  const lines = stdout.split("\n");
  assert.equal(lines.filter((l) => /^ {2}tool manage_memory .*"event":"ADD"/.test(l)).length, 2, stdout);
  assert.match(stdout, /assistant: Welcome to Lisbon!/);
  // The model only searches when the injection put both facts in its system prompt (see the script).
  const block = stdout.slice(stdout.indexOf("    <memory>"), stdout.indexOf("    </memory>"));
  assert.deepEqual(block.split("\n").slice(1, -1).map((l) => l.trim()).sort(), [
    "[SEMANTIC] User is vegetarian",
    "[SEMANTIC] User lives in Lisbon",
  ]);
  assert.match(stdout, /tool search_memory .*"results":\[\{"id"/);
  assert.match(stdout, /assistant: Try Ao 26 Vegan Food Project/);
  assert.match(stdout, /^ {2}background: ADD User is looking for dinner places in Lisbon$/m, "one coalesced background add");
  assert.match(stdout, /core profile:\n {2}# Alice\n {2}- Vegetarian\n {2}- Lives in Lisbon/);
  assert.match(stdout, /alice's memories: User is vegetarian; User lives in Lisbon; User is looking for dinner places in Lisbon/);
});
