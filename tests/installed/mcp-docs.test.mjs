// The MCP server as the manual sets it up on a fresh machine: docs/mcp.md's install block runs as written
// (its home folder and the tarball's path substituted), then its server line and every desktop-client config
// of README.md and docs/mcp.md start as written (the home folder, node's path and the model folder
// substituted), with no node on PATH (a desktop client runs no shell), driven by the official MCP SDK client.
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { MODEL_DIR, run, tarball, tempDir } from "./helpers.mjs";

const page = (name) => readFileSync(new URL(`../../${name}`, import.meta.url), "utf8");
const fenced = (text, lang) => [...text.matchAll(new RegExp("```" + lang + "\\n([\\s\\S]*?)```", "g"))].map((m) => m[1]);
/** The placeholders of the pages, each a path of the reader's machine. */
const TARBALL = "/path/to/memwasm-0.1.0.tgz";
const NODE = "/usr/local/bin/node";
const HOME = "/Users/you";
const MODELS = "/Users/you/models/all-MiniLM-L6-v2";

/** A client on `command args` with `env` as a desktop client starts it: PATH holds no node. */
async function connect(t, command, args, env = {}) {
  const transport = new StdioClientTransport({ command, args, env: { PATH: "/nonexistent", ...env }, stderr: "pipe" });
  let stderr = "";
  transport.stderr.on("data", (chunk) => (stderr += chunk));
  const client = new Client({ name: "memwasm-installed", version: "1.0.0" });
  await client.connect(transport).catch((error) => assert.fail(`${command} ${args.join(" ")} did not start: ${error.message}\n${stderr}`));
  t.after(() => client.close());
  return client;
}

/** Calls tool `name`; its JSON result (the call must succeed). */
async function call(client, name, args) {
  const result = await client.callTool({ name, arguments: args });
  assert.ok(!result.isError, `${name}: ${result.content[0].text}`);
  return JSON.parse(result.content[0].text);
}

/** The graph tools round-trip an entity (no model call: the key in a config's env is never used). */
async function graphWorks(client, name) {
  await call(client, "create_entities", { entities: [{ name, entityType: "person", observations: ["likes tea"] }] });
  const graph = await call(client, "read_graph", {});
  assert.ok(graph.entities.some((e) => e.name.toLowerCase() === name.toLowerCase()), JSON.stringify(graph)); // names are title-cased
}

test("docs/mcp.md's install, its server line and every desktop-client config work as written", { timeout: 900_000 }, async (t) => {
  const home = tempDir(t, "memwasm-home-");
  const here = (text) => text.replaceAll(MODELS, MODEL_DIR).replaceAll(HOME, home).replaceAll("~/", `${home}/`)
    .replaceAll(NODE, process.execPath).replaceAll(TARBALL, tarball(t));
  const [install] = fenced(page("docs/mcp.md"), "bash");
  const lines = install.trim().split("\n");
  const serverLine = lines.pop();
  assert.match(serverLine, /memwasm mcp --db/, "the block ends with the server's command line");
  // A global install (-g) goes to a prefix in the temp home, never the machine's.
  t.diagnostic((await run("bash", ["-ec", here(lines.join("\n"))], home, { npm_config_prefix: join(home, ".npm-global") })).took);

  const cli = await connect(t, "bash", ["-c", here(serverLine.replace(/#.*/, ""))], { PATH: process.env.PATH, OPENAI_API_KEY: "sk-test" });
  await graphWorks(cli, "Ada");
  await cli.close();

  const configs = ["README.md", "docs/mcp.md"].flatMap((name) => fenced(page(name), "json")
    .filter((block) => block.includes("mcpServers")).map((block) => ({ name, servers: JSON.parse(here(block)).mcpServers })));
  assert.ok(configs.length >= 3, `${configs.length} client configs`);
  for (const { name, servers } of configs) {
    for (const [key, server] of Object.entries(servers)) {
      assert.ok(server.command.startsWith("/"), `${name}: ${key}'s command is an absolute path (${server.command})`);
      const client = await connect(t, server.command, server.args, server.env);
      if (server.args.includes("--weights")) {
        await call(client, "add_memory", { text: "I adopted a golden retriever puppy" });
        await call(client, "add_memory", { text: "My favourite band is Radiohead" });
        const { results } = await call(client, "search_memories", { query: "what pet do I have?", limit: 1 });
        assert.equal(results[0].memory, "I adopted a golden retriever puppy", name);
      } else {
        await graphWorks(client, `Grace Hopper of ${name}`);
      }
      await client.close();
      const db = server.args[server.args.indexOf("--db") + 1];
      assert.ok(existsSync(db), `${name}: the memories are in ${db}`);
    }
  }
  assert.ok(existsSync(join(home, ".memwasm/node_modules/memwasm/bin/memwasm.mjs")), "installed where the configs point");
});
