#!/usr/bin/env node
// The memwasm command. `memwasm mcp --db PATH`: an MCP server over stdio (docs/mcp.md).
const [command, ...rest] = process.argv.slice(2);
if (command === "mcp") {
  const { main } = await import("../mcp/cli.mjs");
  const code = await main(rest);
  if (code !== undefined) process.exitCode = code;
} else {
  process.stderr.write("usage: memwasm mcp --db PATH [options]   (memwasm mcp --help for the options)\n");
  process.exitCode = command === undefined || command === "--help" || command === "-h" ? 0 : 2;
}
