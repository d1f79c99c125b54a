// Checks a tool call's arguments against its inputSchema in tools.json. Only the JSON Schema keywords
// tools.json uses: type (object, array, string, integer, boolean), properties, required,
// additionalProperties: false, items, enum, minimum, maximum, maxLength. Returns the first problem as a
// sentence naming the argument, or null.

const TYPES = {
  object: (v) => v !== null && typeof v === "object" && !Array.isArray(v),
  array: Array.isArray,
  string: (v) => typeof v === "string",
  integer: Number.isSafeInteger,
  boolean: (v) => typeof v === "boolean",
};

/** The first way `value` breaks `schema`, as a sentence naming `path`, or null. */
export function check(schema, value, path = "arguments") {
  if (schema.type && !TYPES[schema.type](value)) {
    return `\`${path}\` must be ${schema.type === "integer" ? "an integer" : `a${/^[aeiou]/.test(schema.type) ? "n" : ""} ${schema.type}`}`;
  }
  if (schema.enum && !schema.enum.includes(value)) return `\`${path}\` must be one of ${schema.enum.join(", ")}`;
  if (schema.minimum !== undefined && value < schema.minimum) return `\`${path}\` must be at least ${schema.minimum}`;
  if (schema.maximum !== undefined && value > schema.maximum) return `\`${path}\` must be at most ${schema.maximum}`;
  if (schema.maxLength !== undefined && value.length > schema.maxLength) {
    return `\`${path}\` must be at most ${schema.maxLength} characters`;
  }
  if (schema.type === "array" && schema.items) {
    for (let i = 0; i < value.length; i++) {
      const problem = check(schema.items, value[i], `${path}[${i}]`);
      if (problem) return problem;
    }
  }
  if (schema.type === "object") {
    const properties = schema.properties ?? {};
    for (const name of schema.required ?? []) {
      if (value[name] === undefined || value[name] === null) return `\`${path === "arguments" ? name : `${path}.${name}`}\` is required`;
    }
    for (const [name, item] of Object.entries(value)) {
      const at = path === "arguments" ? name : `${path}.${name}`;
      if (!(name in properties)) {
        if (schema.additionalProperties === false) {
          return `unknown argument \`${at}\` (accepted: ${Object.keys(properties).join(", ") || "none"})`;
        }
        continue;
      }
      if (item === null || item === undefined) continue; // an optional argument sent as null means "not given"
      const problem = check(properties[name], item, at);
      if (problem) return problem;
    }
  }
  return null;
}

/** Most levels of nesting in a tool call's arguments, `arguments` itself the first: the library's own bound on
 * metadata and filters, checked before anything runs on both transports (the Worker's check.rs too). */
export const MAX_DEPTH = 64;

/** The first argument nested deeper than MAX_DEPTH levels, as a sentence naming it, or null. */
export function tooDeep(args) {
  for (const [name, value] of Object.entries(args)) {
    if (deeper(value, MAX_DEPTH - 1)) return `\`${name}\` is nested deeper than ${MAX_DEPTH} levels: send flatter arguments`;
  }
  return null;
}

/** True when `value` holds more than `levels` levels of objects and arrays (looks no deeper than that). */
function deeper(value, levels) {
  if (value === null || typeof value !== "object") return false;
  if (levels === 0) return true;
  return Object.values(value).some((item) => deeper(item, levels - 1));
}
