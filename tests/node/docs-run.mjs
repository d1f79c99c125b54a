// Runs one block of the manual as written, in a fresh async function: its `import … from "…"` statements
// become awaited `__import(…)` calls, and it gets the names of `given` that it neither imports nor declares.
const AsyncFunction = (async () => {}).constructor;

/** `code` with its `import … from "…"` statements turned into awaited `__import(…)` calls, and the names they bind. */
function withoutImports(code) {
  const imported = [];
  const body = code.replace(/^import\s+([\s\S]*?)\s+from\s+("[^"]+");?$/gm, (_, names, from) => {
    const bound = names.trim().startsWith("{")
      ? names.replace(/\s+as\s+/g, ": ")
      : `{ default: ${names.trim()} }`;
    imported.push(...names.replace(/[{}]/g, "").split(",").map((name) => name.trim().split(/\s+as\s+/).pop()));
    return `const ${bound} = await __import(${from});`;
  });
  return { body, imported };
}

/** Runs `code` with `given` (which must hold `__import` when the block imports); resolves with what it returns. */
export async function runBlock(code, given) {
  const { body, imported } = withoutImports(code);
  // A block that imports or declares one of these names itself gets none.
  const declares = (name) => imported.includes(name) || new RegExp(`\\b(const|let|var|function)\\s+${name}\\b`).test(body);
  const names = Object.keys(given).filter((name) => !declares(name));
  return new AsyncFunction(...names, body)(...names.map((name) => given[name]));
}

/** Runs `fn` with the environment variables of `vars` set (`undefined`: unset), then puts them back. */
export async function withEnv(vars, fn) {
  const saved = Object.fromEntries(Object.keys(vars).map((name) => [name, process.env[name]]));
  const set = (values) => {
    for (const [name, value] of Object.entries(values)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  };
  set(vars);
  try {
    return await fn();
  } finally {
    set(saved);
  }
}

/** `code` with each statement `await X;` whose comment (on its line, or alone on the next) claims an output
 * keeping X's value in the Map `__claimed` under the comment's text, so a test can assert what the comment
 * says. Run it with `__claimed` among the given names. */
export function keepClaimed(code) {
  return code.replace(/^([ \t]*)await[ \t]+(.+?);([ \t]*\/\/[ \t]*|[ \t]*\n[ \t]*\/\/[ \t]*)(.+?)[ \t]*$/gm, (line, indent, expr, gap, claim) =>
    `${indent}__claimed.set(${JSON.stringify(claim)}, await ${expr});${gap}${claim}`);
}
