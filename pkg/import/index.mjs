// `withImport(Memory)`: the Memory class plus `memory.importConversations(source, options)` (importer.mjs),
// as `withSync` adds `sync()`. It notes what each memory is made with (an LLM, graph memory, the pipeline)
// from its config, for the dry run's estimate of model calls.
import { importConversations, settingsOf } from "./importer.mjs";

export { importConversations };
export { detect } from "./detect.mjs";
export { parseChatgpt } from "./chatgpt.mjs";
export { parseClaude } from "./claude.mjs";

/** `{ llm, graph, pipeline }` of a Memory config. */
function settings(config) {
  return { llm: config?.llm?.provider !== "none", graph: config?.graph?.enabled === true, pipeline: config?.pipeline };
}

export function withImport(Base) {
  const Imported = class extends Base {
    constructor(config) {
      super(config);
      settingsOf.set(this, settings(config));
    }
    static fromConfig(config) {
      const memory = Object.setPrototypeOf(super.fromConfig(config), this.prototype);
      settingsOf.set(memory, settings(config));
      return memory;
    }
    static async open(config) {
      const memory = Object.setPrototypeOf(await super.open(config), this.prototype);
      settingsOf.set(memory, settings(config));
      return memory;
    }
  };
  Imported.prototype.importConversations = function importInto(source, options) {
    return importConversations(this, source, options);
  };
  return Imported;
}
