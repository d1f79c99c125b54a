// The manual's pages (README.md and docs/*.md) as the docs tests read them: their code blocks, headings and
// relative links, each with the line it is on.
import { readdirSync, readFileSync } from "node:fs";

export const ROOT = new URL("../../", import.meta.url);

/** Every page: README.md, then docs/*.md in name order, as `{name, url, text}`. */
export function pages() {
  const docs = readdirSync(new URL("docs/", ROOT)).filter((name) => name.endsWith(".md")).sort();
  return ["README.md", ...docs.map((name) => `docs/${name}`)].map((name) => {
    const url = new URL(name, ROOT);
    return { name, url, text: readFileSync(url, "utf8") };
  });
}

/** The design notes and history in docs/dev/*.md, in name order, as `{name, url, text}`: not the manual. */
export function devPages() {
  const folder = new URL("docs/dev/", ROOT);
  return readdirSync(folder).filter((name) => name.endsWith(".md")).sort().map((name) => {
    const url = new URL(name, folder);
    return { name: `docs/dev/${name}`, url, text: readFileSync(url, "utf8") };
  });
}

/** Pages whose blocks another test runs as written (it needs a process, a setup or packages of its own): that
 * test's path from the repository root. */
export const RUN_ELSEWHERE = {
  "docs/keys-in-the-browser.md": "tests/node/keys-doc.test.mjs",
  "docs/ai-sdk.md": "tests/ai-sdk/docs.test.mjs",
  "docs/openai-agents.md": "tests/openai-agents/docs-page.test.mjs",
  "docs/langgraph.md": "tests/langgraph/docs.test.mjs",
  "docs/otel.md": "tests/otel/docs.test.mjs",
};

/** The marker that puts the block under it in the type check instead of running it. */
export const TYPE_CHECKED = "<!-- type-checked -->";
/** `<!-- run by tests/…/x.test.mjs -->`: that test (path from the repository root) runs the block under it, with
 * the setup it needs, and asserts what its comments say; docs-examples.test.mjs leaves it alone. */
const RUN_BY = /^<!-- run by (\S+) -->$/;
const SCRIPT = new Set(["js", "javascript", "ts", "typescript"]);

/** The fenced blocks of `text`: `{lang, line (of the opening fence, 1-based), code, marked, runBy}`. */
export function codeBlocks(text) {
  const lines = text.split("\n");
  const found = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^(\s*)(`{3,}|~{3,})\s*([\w-]*)/.exec(lines[i]);
    if (!open) continue;
    const [, , fence, lang] = open;
    let end = i + 1;
    while (end < lines.length && !lines[end].trimStart().startsWith(fence)) end++;
    const above = lines[i - 1]?.trim() ?? "";
    const code = lines.slice(i + 1, end).join("\n");
    found.push({ lang, line: i + 1, code, marked: above === TYPE_CHECKED, runBy: RUN_BY.exec(above)?.[1] });
    i = end;
  }
  return found;
}

/** The JavaScript and TypeScript blocks of `text`. */
export const scriptBlocks = (text) => codeBlocks(text).filter((block) => SCRIPT.has(block.lang));

/** The blocks of every page that `file` (a path from the repository root) runs: `{page, line, lang, code}`. */
export function blocksRunBy(file) {
  return pages().flatMap((page) => codeBlocks(page.text).filter((b) => b.runBy === file).map((b) => ({ ...b, page: page.name })));
}

/** The lines of `text` with its fenced blocks blanked out, and its inline code too unless `keepCode`. */
function prose(text, keepCode = false) {
  const lines = text.split("\n");
  for (const { line, code } of codeBlocks(text)) {
    const count = code === "" ? 0 : code.split("\n").length;
    for (let i = line - 1; i <= line + count && i < lines.length; i++) lines[i] = "";
  }
  return keepCode ? lines : lines.map((line) => line.replace(/`+[^`]*`+/g, (span) => " ".repeat(span.length)));
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens; repeats get -1, -2, … */
export function headingSlugs(text) {
  const slugs = new Set();
  const seen = new Map();
  for (const line of prose(text, true)) {
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!heading) continue;
    const base = heading[1].toLowerCase().replace(/[^\p{L}\p{M}\p{N}\s_-]/gu, "").replace(/\s/g, "-");
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    slugs.add(n === 0 ? base : `${base}-${n}`);
  }
  return slugs;
}

/** The relative links of `text` (not http:, https:, mailto:), outside code: `{target, line}`. */
export function relativeLinks(text) {
  const found = [];
  prose(text).forEach((line, index) => {
    for (const [, target] of line.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) {
      if (!/^[a-z][a-z0-9+.-]*:/i.test(target)) found.push({ target, line: index + 1 });
    }
  });
  return found;
}

/** A comment's text claims an output: an arrow (`→`, `=>`), "prints" or "logs", or a value (`{…}`, `[…]`). */
const CLAIM = /→|=>|\bprints\b|\blogs\b|^[[{]/;
/** A comment line of its own also claims one when it gives a name a value (`stored: 3`, `chunks: [`). */
const NAMED = /^[\w.]+: ["'\d[{]/;
const SHELL = new Set(["sh", "bash", "shell", "console"]);

/** The comment of `line` (after `#` in shell, `//` elsewhere, outside strings), or undefined. */
function commentOf(line, lang) {
  const masked = line.replace(/"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|`(?:[^`\\]|\\.)*`/g, (s) => "_".repeat(s.length));
  const at = SHELL.has(lang) ? masked.search(/(?:^|\s)#/) : masked.search(/(?<![:/])\/\/(?!\/)/);
  if (at < 0) return undefined;
  return line.slice(line.indexOf(SHELL.has(lang) ? "#" : "//", at) + (SHELL.has(lang) ? 1 : 2));
}

/** The brackets `text` leaves open (`{` and `[` minus `}` and `]`). */
const open = (text) => (text.match(/[[{]/g) ?? []).length - (text.match(/[\]}]/g) ?? []).length;

/** The outputs the comments of a block claim, one per comment line: `{line (in the page), text (trimmed)}`. A
 * comment on a `console.log(…)` line claims what it prints, whatever it says; a comment line under a claim
 * whose brackets are still open continues it. */
export function claimedOutputs(block) {
  const found = [];
  let depth = 0;
  block.code.split("\n").forEach((line, index) => {
    const comment = commentOf(line, block.lang);
    const text = comment?.trim() ?? "";
    const alone = comment !== undefined && line.trim().startsWith(SHELL.has(block.lang) ? "#" : "//");
    const continues = depth > 0 && alone;
    if (text !== "" && (continues || CLAIM.test(text) || (alone && NAMED.test(text)) || /console\.log\(/.test(line))) {
      found.push({ line: block.line + 1 + index, text });
      depth = Math.max(0, (continues ? depth : 0) + open(text));
    } else {
      depth = 0;
    }
  });
  return found;
}
