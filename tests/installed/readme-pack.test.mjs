// The README's install block says what `npm pack` makes of pkg/: the tarball's name and, to a tenth of a MB,
// its size packed and unpacked. `npm pack --dry-run --json` of the built package gives both, and the claim is
// read from the README's comment (claimedOutputs) and compared with them.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { test } from "node:test";
import { blocksRunBy, claimedOutputs } from "../node/docs-pages.mjs";
import { PKG } from "./helpers.mjs";

const [block] = blocksRunBy("tests/installed/readme-pack.test.mjs");

test("README: npm pack makes the tarball its install block names, of the size it gives", { timeout: 120_000 }, () => {
  assert.equal(block?.page, "README.md", "the block is marked run by this file");
  const [claim] = claimedOutputs(block);
  const said = /^→ pkg\/(\S+), about ([\d.]+) MB \(([\d.]+) MB unpacked\)$/.exec(claim?.text ?? "");
  assert.ok(said, `the pack line claims a name and two sizes: ${claim?.text}`);
  const [packed] = JSON.parse(execFileSync("npm", ["pack", "--dry-run", "--json", "--ignore-scripts"], { cwd: PKG, encoding: "utf8" }));
  const mb = (bytes) => (bytes / 1e6).toFixed(1);
  assert.deepEqual([packed.filename, mb(packed.size), mb(packed.unpackedSize)], [said[1], said[2], said[3]]);
});
