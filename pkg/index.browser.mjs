// Browser and bundler entry: fetches and instantiates the .wasm next to the glue (bundlers such as Vite and
// webpack 5 rewrite the URL), then re-exports the API. Uses top-level await, so importers get a ready module.
import init from "./dist/memwasm.js";

await init();

export * from "./dist/memwasm.js";
export { MemoryError, LLMError } from "./dist/errors.js";
