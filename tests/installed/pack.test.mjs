// The npm tarball, as `npm pack` makes it from pkg/ (after the package and the on-device embedder are built):
// every path package.json lists in `files` is in it (the embedder's .wasm and JS glue included: npm honours
// nested ignore files even for listed paths, so a .gitignore of built output can drop them), and nothing
// else is, bar the files npm always adds.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { PKG, tarball } from "./helpers.mjs";

const ALWAYS = /^(package\.json|README(\.md)?|LICEN[CS]E(\.md)?)$/i;

test("the tarball holds exactly the paths package.json lists in files", { timeout: 120_000 }, (t) => {
  const { files, exports } = JSON.parse(readFileSync(`${PKG}package.json`, "utf8"));
  const packed = execFileSync("tar", ["-tzf", tarball(t)], { encoding: "utf8" })
    .split("\n").filter((line) => line && !line.endsWith("/")).map((line) => line.replace(/^package\//, ""));
  const listed = (path) => files.some((entry) => (entry.endsWith("/") ? path.startsWith(entry) : path === entry));
  const missing = files.filter((entry) => !packed.some((path) => path === entry || (entry.endsWith("/") && path.startsWith(entry))));
  assert.deepEqual(missing, [], `listed in files but not packed (of ${packed.length} packed)`);
  assert.deepEqual(packed.filter((path) => !listed(path) && !ALWAYS.test(path)), [], "packed but not listed in files");
  const junk = packed.filter((path) => /(^|\/)(\.|node_modules\/|target\/)|\.(rs|map|tgz)$/.test(path));
  assert.deepEqual(junk, [], "no dotfiles, sources, maps or build dirs");
  for (const built of ["README.md", "LICENSE", "local-embedder/dist/local_embedder_bg.wasm", "dist/memwasm_bg.wasm", "dist/core/memwasm_bg.wasm"]) {
    assert.ok(packed.includes(built), `${built} is packed`);
  }
  const leaves = (node) => (typeof node === "string" ? [node.slice(2)] : Object.values(node).flatMap(leaves));
  assert.deepEqual(leaves(exports).filter((target) => !packed.includes(target)), [], "every export target is packed");
});
