// `withImport(Memory)`: the Memory class plus `memory.importConversations(source, options)` (importer.mjs),
// as `withSync` adds `sync()`. Through `withConfig`, it notes what each memory is made with (an LLM, graph
// memory, the pipeline) from its config, for the dry run's estimate of model calls. The importer and its
// format readers load on the first call, so a page that never imports never fetches them.
import { onFirstUse } from "../lazy.mjs";
import { withConfig } from "../with-config.mjs";
import { settingsOf } from "./settings.mjs";

/** The importer's module (`NOT_IN_MODULE` when it cannot be fetched; the next call tries again). */
const importer = onFirstUse(() => import("./importer.mjs"), "the importer (import/importer.mjs)");

/** `{ llm, graph, pipeline }` of a Memory config. */
function settings(config) {
  return { llm: config?.llm?.provider !== "none", graph: config?.graph?.enabled === true, pipeline: config?.pipeline };
}

export function withImport(Base) {
  const Imported = withConfig(Base, (config) => config, (memory, config) => settingsOf.set(memory, settings(config)));
  Imported.prototype.importConversations = async function importInto(source, options) {
    const { importConversations } = await importer();
    return importConversations(this, source, options);
  };
  return Imported;
}
