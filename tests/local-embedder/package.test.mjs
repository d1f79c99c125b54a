// The npm tarball, as `npm pack` makes it from pkg/ (run after the package and the on-device embedder are
// built): every path `package.json` lists in `files` is in it, the embedder's `.wasm` and JS glue included
// (npm honours nested ignore files even for listed paths, so a `.gitignore` of built output can drop them).
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

const pkg = fileURLToPath(new URL("../../pkg/", import.meta.url));

test("npm pack of pkg/ holds every path package.json lists in files", { timeout: 120_000 }, () => {
  const { files } = JSON.parse(readFileSync(`${pkg}package.json`, "utf8"));
  const [packed] = JSON.parse(execFileSync("npm", ["pack", "--dry-run", "--json", "--ignore-scripts"], { cwd: pkg, encoding: "utf8" }));
  const paths = packed.files.map((file) => file.path);
  const missing = files.filter((listed) => !paths.some((path) => path === listed || path.startsWith(listed.endsWith("/") ? listed : `${listed}/`)));
  assert.deepEqual(missing, [], `listed in files but not packed (of ${paths.length} packed)`);
  for (const built of ["local-embedder/dist/local_embedder_bg.wasm", "dist/memwasm_bg.wasm", "dist/core/memwasm_bg.wasm"]) {
    assert.ok(paths.includes(built), `${built} is packed`);
  }
});
