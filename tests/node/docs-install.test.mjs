// The manual's install commands: memwasm is not on the npm registry, so no page installs or runs it by name
// (npm or npx would fetch whatever is published under it); a page that has install lines installs every
// package its examples import (better-sqlite3 for those on SQLite), each package that the page's own test
// suite runs with given in a range holding the version tested.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import semver from "semver";
import { codeBlocks, pages, scriptBlocks } from "./docs-pages.mjs";

/** The suite that runs a page's examples with packages of its own (their versions pinned there). */
const SUITES = { "docs/otel.md": "otel", "docs/langgraph.md": "langgraph", "docs/ai-sdk.md": "ai-sdk", "docs/openai-agents.md": "openai-agents" };
const SHELL = new Set(["sh", "bash", "shell", "console"]);

/** The package specs of each `npm install` line of `text`'s shell blocks, options and comments left out. */
function installs(text) {
  return codeBlocks(text).filter((block) => SHELL.has(block.lang)).flatMap((block) => block.code.split("\n"))
    .map((line) => line.replace(/#.*/, "").trim()).filter((line) => /^npm (install|i)\b/.test(line))
    .map((line) => line.split(/\s+/).slice(2).filter((word) => !word.startsWith("-")).map((word) => word.replace(/^"|"$/g, "")));
}

/** `spec`'s package name and range (`*` when none): `@scope/name@range`, `name@range` or a path. */
function parse(spec) {
  const at = spec.indexOf("@", 1);
  return at < 0 ? { name: spec, range: "*" } : { name: spec.slice(0, at), range: spec.slice(at + 1) };
}

/** The bare packages the page's JavaScript imports (not memwasm, not node:). */
function imported(text) {
  const names = scriptBlocks(text).flatMap((block) => [...block.code.matchAll(/^import\s[\s\S]*?\sfrom\s+"([^"]+)"/gm)].map((m) => m[1]));
  return [...new Set(names.filter((name) => !name.startsWith("node:") && !/^memwasm(\/|$)/.test(name))
    .map((name) => name.split("/").slice(0, name.startsWith("@") ? 2 : 1).join("/")))];
}

test("no page installs or runs memwasm by name: the tarball is installed by its path", () => {
  for (const page of pages()) {
    for (const specs of installs(page.text)) {
      for (const spec of specs) assert.doesNotMatch(spec, /^memwasm(@|$)/, `${page.name}: npm install ${specs.join(" ")}`);
    }
    assert.doesNotMatch(page.text, /npx\b[^\n`]*\bmemwasm\b/, `${page.name}: npx fetches memwasm from the registry`);
    assert.doesNotMatch(page.text, /"command":\s*"npx",\s*"args":\s*\[\s*"memwasm"/, `${page.name}: a client config runs npx memwasm`);
  }
});

test("a page's install lines name every package its examples import, better-sqlite3 for SQLite", () => {
  let checked = 0;
  for (const page of pages()) {
    const named = installs(page.text).flat().map((spec) => parse(spec).name);
    if (named.length === 0 || page.name === "README.md") continue;
    checked++;
    for (const name of imported(page.text)) assert.ok(named.includes(name), `${page.name}: its examples import ${name}; install it`);
    if (scriptBlocks(page.text).some((block) => /provider:\s*"sqlite"/.test(block.code))) {
      assert.ok(named.includes("better-sqlite3"), `${page.name}: its examples keep memories in SQLite (Node 20 needs better-sqlite3)`);
    }
  }
  assert.ok(checked >= 4, `${checked} pages with install lines`);
});

test("every page installs better-sqlite3 in a range for Node 20 (its latest needs Node 22), holding the tested version", () => {
  const tested = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")).dependencies["better-sqlite3"];
  for (const page of pages()) {
    const specs = [...installs(page.text).flat(), ...[...page.text.matchAll(/`npm install ([^`]*)`/g)].flatMap((m) => m[1].split(/\s+/))];
    for (const { name, range } of specs.map(parse).filter((spec) => spec.name === "better-sqlite3")) {
      assert.ok(range !== "*" && semver.satisfies(tested, range), `${page.name}: better-sqlite3@${range} (Node 20 needs 12.x, tested ${tested})`);
    }
  }
});

test("each package a page installs beside memwasm has a range holding the version its suite runs with", () => {
  for (const [name, suite] of Object.entries(SUITES)) {
    const page = pages().find((p) => p.name === name);
    const pinned = JSON.parse(readFileSync(new URL(`../${suite}/package.json`, import.meta.url), "utf8")).dependencies;
    for (const spec of installs(page.text).flat().filter((s) => !s.startsWith("/") && !s.startsWith("."))) {
      const { name: pkg, range } = parse(spec);
      if (pkg === "memwasm" || !pinned[pkg]) continue;
      assert.notEqual(range, "*", `${name}: ${pkg} with no range installs the latest, which was not tested (${suite} runs ${pinned[pkg]})`);
      assert.ok(semver.satisfies(pinned[pkg], range), `${name}: ${spec} does not hold ${pinned[pkg]}, the version ${suite} runs`);
    }
  }
});
