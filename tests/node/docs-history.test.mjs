// The manual (README.md and docs/*.md) describes the library as it is; its history (what changed, earlier
// runs, before-and-after tables of past work) lives in docs/dev/ and in the git log. This test flags a page
// line that reads like a diary entry, with its page and line.
import { test } from "node:test";
import assert from "node:assert/strict";
import { pages } from "./docs-pages.mjs";

/** Diary markers: each a pattern and what it marks. A commit hash may name the code a measurement ran on
 * ("the code of `2e077e4`") or the source a fixture was copied from ("mem0 at `8d5b786`"). */
const MARKERS = [
  [/\b(this|last|previous|the next) round\b/i, "a round of work"],
  [/\bbefore (this|that|the) (work|change|fix|round|renovation)\b/i, "a change of the past"],
  [/\b(was|were|got|is now|are now) (fixed|renovated)\b/i, "a fix of the past"],
  [/\bthe (issue|spec)\b/i, "the task's text instead of the concept"],
  [/\b(previous|earlier) (full )?runs?\b/i, "an earlier run"],
  [/\bwhat changed\b/i, "a change log"],
  [/\bbefore this(,| run\b)|\(as before\)/i, "a change of the past"],
  [/\b(after|before|since) the [\w -]{1,40}? work\b/i, "a change of the past"],
  [/\bprevious figures\b/i, "figures of the past"],
  [/^#+ .*\b(what was (tried|done)|tried and not kept)\b/i, "a log of past attempts"],
  [/\|\s*before\s*(\([^|]*\))?\s*\|(.*\|)?\s*after\s*(\([^|]*\))?\s*\|/i, "a before/after table of past work"],
  [/(?<!the code of |mem0 at )`(?=[0-9a-f]*\d)(?=[0-9a-f]*[a-f])[0-9a-f]{7,40}`/, "a commit hash"],
];

/** The diary lines of `text`, as "line: marker: text". */
export function diaryLines(text) {
  const found = [];
  text.split("\n").forEach((line, index) => {
    for (const [pattern, what] of MARKERS) {
      if (pattern.test(line)) found.push(`${index + 1}: ${what}: ${line.trim().slice(0, 100)}`);
    }
  });
  return found;
}

test("docs: no page of the manual reads like a diary (history goes to docs/dev/ or the git log)", () => {
  const all = pages();
  assert.ok(all.length > 20, "README.md and the docs pages are read");
  const found = all.flatMap((page) => diaryLines(page.text).map((line) => `${page.name}:${line}`));
  assert.deepEqual(found, [], `diary lines in the manual:\n${found.join("\n")}`);
});

test("docs: each diary marker is found, and the manual's ordinary words are not", () => {
  const diary = [
    "This round the index got faster.",
    "Before this work the default found 0.510.",
    "The bug was fixed in March.",
    "Lifecycle stays in the core module: the issue counts it.",
    "## The previous full run and what changed after it",
    "| figure | before (7 runs) | after (6 runs) | target |",
    "Measured on `1cdc8c5`, the module was smaller.",
    "(After the search-quality work: stemming added 16 KB.)",
    "Before this run it was 1.4× slower. What changed:",
    "## What was done, and what each change saved",
  ];
  assert.deepEqual(diary.map((line) => diaryLines(line).length > 0), diary.map(() => true), diaryLines(diary.join("\n")).join("\n"));
  const manual = [
    "Chroma ids the engine no longer knows are dropped.",
    "One full run (2026-11-27, the code of `2e077e4`).",
    "The blocks were copied from mem0 at `8d5b786`.",
    "Run it before the first search and after every import.",
    "| call | before the first add | after it |",
    "An issue of the model's reply is reported as `LLM_BAD_REPLY`.",
    "The key `deadbeef` is a placeholder; so is `cafe`.",
  ];
  assert.deepEqual(manual.flatMap((line) => diaryLines(line)), []);
});

test("docs: every page of the manual opens with its title, one `# ` heading", () => {
  const outsideCode = (text) => text.replace(/^(`{3,}|~{3,})[^\n]*\n[\s\S]*?^\1/gm, "");
  const untitled = pages().filter((page) => !/^# \S/.test(page.text) || (outsideCode(page.text).match(/^# /gm) ?? []).length !== 1)
    .map((page) => `${page.name}: ${page.text.split("\n")[0]}`);
  assert.deepEqual(untitled, []);
});
