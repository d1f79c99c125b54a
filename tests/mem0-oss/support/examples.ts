// Runs one of mem0's examples (ported to v3/examples/ and v2/examples/) the way its README runs them, as a
// program: `tsx <file>` in its own process, with OPENAI_BASE_URL / OPENAI_API_KEY and OLLAMA_HOST pointing at
// this test file's scripted model server, and stdin piped in (local-llms.ts is a chat loop). An example
// "passes" when it runs to its end: it exits with 0 within the time limit, logs every step it has, and logs
// no error (mem0's examples catch their errors and console.error them, so the exit code alone says little).
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { MOCK_EMBEDDING, mem0Mock, models } from "./models";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const TSX = join(ROOT, "node_modules", ".bin", "tsx");

/** The variables that would switch on the examples' other stores (pgvector, Qdrant, Redis, Neo4j). */
const OTHER_STORES = /^(PGVECTOR_|QDRANT_|REDIS_|NEO4J_|SUPABASE_|AZURE_AI_SEARCH)/;

export interface ExampleRun {
  file: string;
  code: number | null;
  timedOut: boolean;
  stdout: string;
  stderr: string;
}

/** The model replies of an example run: mem0's mock LLM of the same API version (there is no mock in the
 * examples, which call a real model), and constant vectors of the dimension each config names (1536 for
 * OpenAI's text-embedding-3-small, 768 for Ollama's nomic-embed-text). */
export function scriptExampleModels(version: "v3" | "v2"): void {
  models.script(
    version === "v3" ? mem0Mock.v3ContentLLM("extracted fact from input") : mem0Mock.v2ContentLLM("extracted fact from input"),
    { kind: "embedding", wire: "ollama", vector: new Array(768).fill(0.1) },
    mem0Mock.embedder(MOCK_EMBEDDING),
  );
}

/** Runs `<version>/examples/<file>` to its end (or `timeoutMs`). It types `lines` the way a person would: each one
 * once `prompt` shows on stdout (all at once, before its first question, readline would drop them). */
export function runExample(
  version: string,
  file: string,
  { lines = [] as string[], prompt = "You: ", timeoutMs = 60_000 } = {},
): Promise<ExampleRun> {
  const cwd = mkdtempSync(join(tmpdir(), "mem0-example-")); // its .env (none) and any file it writes
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (value !== undefined && !OTHER_STORES.test(key)) env[key] = value;
  }
  Object.assign(env, {
    OPENAI_API_KEY: "test-key",
    OPENAI_BASE_URL: models.baseURL,
    OLLAMA_HOST: models.url,
    NODE_NO_WARNINGS: "1",
  });
  return new Promise((done) => {
    const child = spawn(TSX, [join(ROOT, version, "examples", file)], { cwd, env, stdio: ["pipe", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    let timedOut = false;
    let typed = 0;
    child.stdout.on("data", (chunk) => {
      stdout += chunk;
      // one line per prompt shown
      while (typed < lines.length && stdout.split(prompt).length - 1 > typed) child.stdin.write(lines[typed++] + "\n");
      if (typed === lines.length) child.stdin.end();
    });
    child.stderr.on("data", (chunk) => (stderr += chunk));
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill("SIGKILL");
    }, timeoutMs);
    child.on("close", (code) => {
      clearTimeout(timer);
      rmSync(cwd, { recursive: true, force: true });
      done({ file, code, timedOut, stdout, stderr });
    });
    if (lines.length === 0) child.stdin.end();
  });
}

/** The step logs of mem0's runTests() (examples/basic.ts and examples/utils/test-utils.ts), once per run;
 * "All memories reset" twice (it resets first and last). */
export const RUN_TESTS_STEPS = [
  "Added memory:",
  "Added messages:",
  "Updated messages:",
  "Single memory:",
  "Updated memory:",
  "All memories:",
  "Search results:",
  "Memory history:",
  "Memory deleted successfully",
];

const count = (text: string, marker: string) => text.split(marker).length - 1;
const tail = (text: string) => (text.length > 6000 ? "…" + text.slice(-6000) : text);

/** Problems of a run that should have logged each of `steps` `times` times, and `extra` markers as counted. */
export function problemsOf(run: ExampleRun, steps: Record<string, number>): string[] {
  const problems: string[] = [];
  if (run.timedOut) problems.push("did not finish within the time limit");
  else if (run.code !== 0) problems.push(`exited with ${run.code}`);
  const errorLines = run.stderr.split("\n").filter((line) => /error/i.test(line));
  if (errorLines.length > 0) problems.push(`logged ${errorLines.length} error line(s), the first: ${errorLines[0].trim()}`);
  for (const [marker, times] of Object.entries(steps)) {
    const seen = count(run.stdout, marker);
    if (seen !== times) problems.push(`logged ${JSON.stringify(marker)} ${seen} times, expected ${times}`);
  }
  return problems;
}

/** Fails with the run's output when it has problems. */
export function expectCompleted(run: ExampleRun, steps: Record<string, number>): void {
  const problems = problemsOf(run, steps);
  if (problems.length > 0) {
    throw new Error(
      `${run.file}: ${problems.join("; ")}\n--- stdout\n${tail(run.stdout)}\n--- stderr\n${tail(run.stderr)}`,
    );
  }
}

/** runTests() ran `runs` times to its end. */
export function runTestsSteps(runs: number): Record<string, number> {
  return { ...Object.fromEntries(RUN_TESTS_STEPS.map((s) => [s, runs])), "All memories reset": 2 * runs };
}
