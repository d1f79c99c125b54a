// Generated from the provider and storage tables (model_table! in src/providers/config/choice.rs, storage_backends!
// in src/platform/compose/storage.rs, the OpenAI-compatible HOSTS): edit those, then run
// `UPDATE_TYPES=1 cargo test --lib ts_types`.

/** Every `llm.provider` name, aliases included. */
export type LlmProvider = "openai" | "azure_openai" | "anthropic" | "gemini" | "google" | "ollama" | "workers-ai" | "custom" | "none" | "openai_compatible" | "groq" | "together" | "openrouter" | "deepseek" | "lmstudio" | "vllm";

/** Every `embedder.provider` name, aliases included (`"local"` is the package's on-device embedder). */
export type EmbedderProvider = "openai" | "azure_openai" | "gemini" | "google" | "ollama" | "workers-ai" | "custom" | "none" | "local" | "openai_compatible" | "together" | "lmstudio" | "vllm";

/** OpenAI-compatible hosts known by name; each has its default `baseUrl` and API-key variable. */
export type OpenAiCompatibleHost = "groq" | "together" | "openrouter" | "deepseek" | "lmstudio" | "vllm";

/** The OpenAI-compatible hosts with a default `baseUrl` that serve embeddings. */
export type OpenAiCompatibleEmbeddingHost = "together" | "lmstudio" | "vllm";

/** Every `storage.provider` name. */
export type StorageProvider = "memory" | "indexeddb" | "cloudflare-kv" | "sqlite";
