// `cd bench && npm run bench` on a fresh clone: bench/run.mjs installs bench/'s packages (and builds the
// package) itself, so nothing it imports before that step may need them. Its static imports, followed
// through every local file, name only Node's own modules.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

const entry = new URL("../../bench/run.mjs", import.meta.url);

/** The specifiers of `text`'s static `import … from "…"` statements (dynamic `import()` left out). */
export function staticImports(text) {
  return [...text.matchAll(/^import\s[^;]*?from\s+"([^"]+)";/gms)].map((match) => match[1]);
}

/** The bare specifiers (packages) reached from `url` by static imports, as "file → package". */
function packagesReached(url, seen = new Set()) {
  if (seen.has(url.href)) return [];
  seen.add(url.href);
  const found = [];
  for (const specifier of staticImports(readFileSync(url, "utf8"))) {
    if (specifier.startsWith(".")) found.push(...packagesReached(new URL(specifier, url), seen));
    else if (!specifier.startsWith("node:")) found.push(`${fileURLToPath(url).split("/bench/")[1]} → ${specifier}`);
  }
  return found;
}

test("staticImports reads multi-line imports and leaves dynamic ones out", () => {
  const text = 'import {\n  a,\n  b,\n} from "./a.mjs";\nimport x from "minisearch";\nconst y = await import("./late.mjs");\n';
  assert.deepEqual(staticImports(text), ["./a.mjs", "minisearch"]);
});

test("bench/run.mjs reaches no package by a static import, so it starts before bench/ is installed", () => {
  assert.ok(staticImports(readFileSync(entry, "utf8")).length > 0, "run.mjs's imports are read");
  assert.deepEqual(packagesReached(entry), []);
});
