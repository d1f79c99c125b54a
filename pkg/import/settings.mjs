// What each memory was made with (`{ llm, graph, pipeline }`), noted by `withImport` from its config for the
// dry run's estimate of model calls. A module of its own, so that noting it loads none of the importer.
export const settingsOf = new WeakMap();
