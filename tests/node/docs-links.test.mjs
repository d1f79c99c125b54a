// Every relative link of the manual (README.md and docs/*.md) and of the design notes (docs/dev/*.md)
// points at a file that exists and, for an `#anchor` into a Markdown page, at a heading of that page
// (GitHub's anchors).
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { devPages, pages, headingSlugs, relativeLinks } from "./docs-pages.mjs";

/** The broken links of `page` (`{name, url, text}`), as "page:line → target (why)". */
export function brokenLinks(page, read = (url) => readFileSync(url, "utf8")) {
  const broken = [];
  for (const { target, line } of relativeLinks(page.text)) {
    const [path, anchor] = target.split("#");
    const url = path === "" ? page.url : new URL(decodeURI(path), page.url);
    const where = `${page.name}:${line} → ${target}`;
    if (path !== "" && !existsSync(fileURLToPath(url))) {
      broken.push(`${where} (no such file)`);
    } else if (anchor !== undefined && url.pathname.endsWith(".md")) {
      const text = path === "" ? page.text : read(url);
      if (!headingSlugs(text).has(decodeURIComponent(anchor))) broken.push(`${where} (no such heading)`);
    }
  }
  return broken;
}

test("docs: every relative link of README.md and docs/*.md reaches an existing file and heading", () => {
  const all = pages();
  assert.ok(all.length > 20, "README.md and the docs pages are read");
  const links = all.reduce((n, page) => n + relativeLinks(page.text).length, 0);
  assert.ok(links > 50, `the pages' links are found (${links})`);
  const broken = all.flatMap((page) => brokenLinks(page));
  assert.deepEqual(broken, [], `broken links:\n${broken.join("\n")}`);
});

test("docs: every relative link of docs/dev/*.md reaches an existing file and heading", () => {
  const notes = devPages();
  assert.ok(notes.length >= 3, "the design notes are read");
  const broken = notes.flatMap((page) => brokenLinks(page));
  assert.deepEqual(broken, [], `broken links:\n${broken.join("\n")}`);
});

test("docs: a link to a missing file or a missing heading is reported with its page and line", () => {
  const page = {
    name: "docs/example.md",
    url: new URL("../../docs/example.md", import.meta.url),
    text: [
      "# Example",
      "",
      "## What `add()` does",
      "[fine](#what-add-does), [also fine](api.md#config), [front page](../README.md)",
      "[gone](no-such-page.md) and [lost](#no-such-heading)",
      "`[not a link](nowhere.md)`, [web](https://example.com/x.md)",
      "[wrong heading](api.md#no-such-heading)",
      "```md",
      "[in code](nowhere.md)",
      "```",
    ].join("\n"),
  };
  assert.deepEqual(brokenLinks(page), [
    "docs/example.md:5 → no-such-page.md (no such file)",
    "docs/example.md:5 → #no-such-heading (no such heading)",
    "docs/example.md:7 → api.md#no-such-heading (no such heading)",
  ]);
});

test("docs: anchors follow GitHub's rules for punctuation, code and repeated headings", () => {
  const slugs = headingSlugs("# The REST service (`worker/`)\n## Storage: Durable Objects (default) or KV\n## Notes\n## Notes\n");
  assert.deepEqual([...slugs], ["the-rest-service-worker", "storage-durable-objects-default-or-kv", "notes", "notes-1"]);
});
