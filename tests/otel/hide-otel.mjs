// `node --import ./hide-otel.mjs …`: the process runs as if @opentelemetry/api were not installed (a module
// resolve hook refuses every @opentelemetry/ package), for the test of memwasm/otel without it.
import { register } from "node:module";
import { isMainThread } from "node:worker_threads";

if (isMainThread) register(import.meta.url);

export async function resolve(specifier, context, next) {
  if (specifier.startsWith("@opentelemetry/")) {
    throw Object.assign(new Error(`Cannot find package '${specifier}'`), { code: "ERR_MODULE_NOT_FOUND" });
  }
  return next(specifier, context);
}
