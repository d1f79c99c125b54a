// The provider and storage name unions generated from the Rust tables (src/js/generated.d.ts) name exactly
// the providers the config types accept: a provider added to a table without its config type (or the
// reverse) fails this check. Run by scripts/suites/25-types.sh: tsc -p tests/types.
import type { EmbedderConfig, EmbedderProvider, LlmConfig, LlmProvider } from "../../pkg/index.js";
import type { StorageConfig, StorageProvider } from "../../pkg/index.js";

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;

export const llmNames: Same<LlmConfig["provider"], LlmProvider> = true;
export const embedderNames: Same<EmbedderConfig["provider"], EmbedderProvider> = true;
export const storageNames: Same<StorageConfig["provider"], StorageProvider> = true;
