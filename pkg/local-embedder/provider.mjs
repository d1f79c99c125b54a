// `embedder: {provider: "local", config}` for memwasm's Memory: rewritten into the core's callback
// provider (`custom`), whose embed loads memwasm/local-embedder (its own .wasm) on first use. Nothing is
// imported or downloaded until the first embedding is needed. A failed load is retried on the next call.

/** `config` with a local embedder replaced by the callback provider; other configs are returned as is. */
export function withLocalEmbedder(config, importModule) {
  const embedder = config?.embedder;
  if (!embedder || embedder.provider !== "local") return config;
  const options = embedder.config ?? {};
  let loading;
  const load = () => (loading ??= importModule().then((m) => m.createLocalEmbedder(options)).catch((error) => {
    loading = undefined;
    throw error;
  }));
  const embed = async (texts) => (await load()).embed(texts);
  return { ...config, embedder: { provider: "custom", dimensions: options.dimensions ?? 384, embed } };
}

/** The core's Memory class with `withLocalEmbedder` applied to every config (constructor, `open`,
 * `fromConfig`); instances of the factories get this class's prototype, so `instanceof` holds. */
export function withLocalProvider(CoreMemory, importModule) {
  const adopt = (memory) => Object.setPrototypeOf(memory, Memory.prototype);
  class Memory extends CoreMemory {
    constructor(config) {
      super(withLocalEmbedder(config, importModule));
    }
    static fromConfig(config) {
      return adopt(super.fromConfig(withLocalEmbedder(config, importModule)));
    }
    static async open(config) {
      return adopt(await super.open(withLocalEmbedder(config, importModule)));
    }
  }
  return Memory;
}
