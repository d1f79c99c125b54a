// Shared by tests/mcp/*.test.mjs: the scripted model server, and `npx memwasm mcp` driven by the official
// MCP SDK client over stdio (the package installed from ../../pkg into ./node_modules).
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, beforeEach } from "node:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { startScriptedServer } from "../support/scripted-server.mjs";
import { graphToolCalls } from "../support/graph-reply.mjs";

export const T = { timeout: 60_000 };
const HERE = new URL(".", import.meta.url).pathname;
export const BIN = join(HERE, "node_modules/memwasm/bin/memwasm.mjs");
const EXTRACT = "You are an expert at extracting structured, atomic facts";
const DECIDE = "You are a memory management system";
const GRAPH = "You extract a knowledge graph";

const clients = [];

/** The scripted model server for this file (reset before each test); `await server.ready` in a `before` hook. */
export function scriptedServer() {
  const box = {};
  box.ready = new Promise((resolve) => before(async () => resolve((box.server = await startScriptedServer({ port: 0 })))));
  after(async () => {
    await Promise.all(clients.map((client) => client.close())); // those a failed test left open
    await box.server?.close();
  });
  beforeEach(() => box.server.reset());
  return new Proxy({}, {
    get: (_, key) => key === "ready" ? box.ready
      : typeof box.server[key] === "function" ? box.server[key].bind(box.server) : box.server[key],
  });
}

/** The folders freshDb made, removed when the test file's process exits. */
const made = [];
process.on("exit", () => made.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

/** A fresh database path, in a folder of its own that is removed when the test file ends. */
export const freshDb = () => join(made[made.push(mkdtempSync(join(tmpdir(), "memwasm-mcp-"))) - 1], "memory.db");

/** An SDK client connected to `npx memwasm mcp --db db …args`. `direct`: `node …/bin/memwasm.mjs` instead of
 * npx, so that `client.transport.pid` is the server's own process. */
export async function connect(server, db, args = [], { env = {}, direct = false } = {}) {
  const cli = ["mcp", "--db", db, "--dimensions", "64", ...args];
  const transport = new StdioClientTransport({
    ...(direct ? { command: process.execPath, args: [BIN, ...cli] } : { command: "npx", args: ["--no-install", "memwasm", ...cli] }),
    cwd: HERE,
    env: { ...process.env, OPENAI_API_KEY: "test-key", OPENAI_BASE_URL: server.baseUrl, ...env }, stderr: "pipe",
  });
  let stderr = "";
  transport.stderr.on("data", (chunk) => (stderr += chunk));
  const client = new Client({ name: "memwasm-tests", version: "1.0.0" });
  await client.connect(transport);
  clients.push(client);
  return Object.assign(client, { stdio: transport, stderr: () => stderr });
}

/** Calls a tool and returns its JSON result; fails the test on a tool error. */
export async function call(client, name, args = {}) {
  const result = await client.callTool({ name, arguments: args });
  const body = JSON.parse(result.content[0].text);
  assert.ok(!result.isError, `${name} failed: ${result.content[0].text}`);
  return body;
}

/** Calls a tool that must fail; returns `{code, message}`. */
export async function callFails(client, name, args = {}) {
  const result = await client.callTool({ name, arguments: args });
  assert.equal(result.isError, true, `${name}(${JSON.stringify(args)}) should fail: ${result.content[0].text}`);
  return JSON.parse(result.content[0].text).error;
}

/** Scripts one add() of a text containing `match`: its facts (all ADDed) and, optionally, its graph. */
export function scriptAdd(server, match, facts, graph) {
  server.script([
    { kind: "chat", match: [EXTRACT, match], reply: { facts }, times: 1 },
    { kind: "chat", match: [DECIDE, facts[0]], reply: { memory: facts.map((text) => ({ text, event: "ADD" })) }, times: 1 },
    ...(graph ? [{ kind: "chat", match: [GRAPH, match], body: graphToolCalls(graph.entities, graph.relations ?? []), times: 1 }] : []),
  ]);
}

/** The CLI on a fresh file (models from `server`), spoken to line by line: `send(message or text)` and
 * `next()` (its next stdout message). */
export function startCli(t, server, args = []) {
  const child = spawn(process.execPath, [BIN, "mcp", "--db", freshDb(), "--dimensions", "64", ...args], {
    env: { ...process.env, OPENAI_API_KEY: "test-key", OPENAI_BASE_URL: server.baseUrl },
    stdio: ["pipe", "pipe", "pipe"],
  });
  t.after(() => child.exitCode === null && child.kill());
  let stderr = "";
  child.stderr.on("data", (chunk) => (stderr += chunk));
  const lines = [];
  const waiting = [];
  let buffered = "";
  child.stdout.on("data", (chunk) => {
    buffered += chunk;
    for (let at; (at = buffered.indexOf("\n")) >= 0; buffered = buffered.slice(at + 1)) lines.push(buffered.slice(0, at));
    while (lines.length && waiting.length) waiting.shift().resolve(JSON.parse(lines.shift()));
  });
  child.on("exit", (code) => {
    for (const { reject } of waiting.splice(0)) reject(new Error(`the server exited (${code}) without answering; stderr: ${stderr}`));
  });
  let stdinError = null; // EPIPE once the server is gone: reported by `next()`
  child.stdin.on("error", (error) => (stdinError = error));
  const send = (message) => child.stdin.write(`${typeof message === "string" ? message : JSON.stringify(message)}\n`);
  const next = () =>
    lines.length ? Promise.resolve(JSON.parse(lines.shift()))
      : child.exitCode !== null
        ? Promise.reject(new Error(`the server had exited (${child.exitCode}) without answering (${stdinError?.code ?? "no stdin error"}); stderr: ${stderr}`))
        : new Promise((resolve, reject) => waiting.push({ resolve, reject }));
  return { child, send, next };
}
