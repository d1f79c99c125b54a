// Real mem0 (npm mem0ai 3.3.1, `mem0ai/oss`, installed in worker/node_modules for the Worker's client tests),
// for side-by-side runs: `node mem0-real.child.mjs '<job JSON>'` makes `new Memory(job.config)`, runs
// `job.adds` ([text, options]) in order, then `job.searches` ([query, options]) and `job.lists` ([options] of
// getAll), and prints `{added, searched, listed}` as JSON. mem0 needs better-sqlite3, which tests/node_modules has: it is resolved from
// there. Its home folder (~/.mem0) is HOME, which the test points at a temp folder.
import { register } from "node:module";

const mem0 = new URL("../../worker/node_modules/mem0ai/dist/oss/index.mjs", import.meta.url);
const sqlite = new URL("../node_modules/better-sqlite3/lib/index.js", import.meta.url);
const hook = `export async function resolve(specifier, context, next) {
  return specifier === "better-sqlite3" ? { url: ${JSON.stringify(sqlite.href)}, shortCircuit: true } : next(specifier, context);
}`;
register(`data:text/javascript,${encodeURIComponent(hook)}`);

const { Memory } = await import(mem0.href);
const job = JSON.parse(process.argv[2]);
const memory = new Memory(job.config);
const added = [];
for (const [text, options] of job.adds ?? []) added.push(await memory.add(text, options));
const searched = [];
for (const [query, options] of job.searches ?? []) searched.push(await memory.search(query, options));
const listed = [];
for (const [options] of job.lists ?? []) listed.push(await memory.getAll(options));
console.log(JSON.stringify({ added, searched, listed }));
