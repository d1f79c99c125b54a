#!/usr/bin/env node
// The memwasm command. `memwasm mcp --db PATH`: an MCP server over stdio (docs/mcp.md). `memwasm import FILE
// --db PATH`: a ChatGPT, Claude, mem0 or memwasm export into a SQLite file (docs/import.md).
const COMMANDS = { mcp: "../mcp/cli.mjs", import: "../import/cli.mjs" };
const [command, ...rest] = process.argv.slice(2);
if (COMMANDS[command]) {
  const { main } = await import(COMMANDS[command]);
  const code = await main(rest);
  if (code !== undefined) process.exitCode = code;
} else {
  process.stderr.write("usage: memwasm mcp --db PATH [options]        an MCP server over stdio (memwasm mcp --help)\n" +
    "       memwasm import FILE --db PATH [options]  import a ChatGPT, Claude, mem0 or memwasm export (memwasm import --help)\n");
  process.exitCode = command === undefined || command === "--help" || command === "-h" ? 0 : 2;
}
