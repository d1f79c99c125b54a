// Types of the whole public API (generated from the Rust crate into dist/).
export * from "./dist/memwasm.js";

import { Memory as CoreMemory } from "./dist/memwasm.js";
import type { EmbedderConfig as CoreEmbedderConfig, MemoryConfig as CoreMemoryConfig } from "./dist/memwasm.js";
import type { LocalEmbedderOptions } from "./local-embedder/index.js";

/** The on-device embedder (memwasm/local-embedder, its own .wasm, loaded on the first embedding). Its load
 * errors reach `add()` / `search()` as `EMBEDDING_CALLBACK` with `EMBEDDER_LOAD` in the message. */
export interface LocalEmbedderConfig {
    provider: "local";
    config: LocalEmbedderOptions & {
        /** The vectors' length; default 384 (all-MiniLM-L6-v2). */
        dimensions?: number;
    };
}

/** The embedder: a discriminated union on `provider`, `"local"` included. */
export type EmbedderConfig = CoreEmbedderConfig | LocalEmbedderConfig;

/** `new Memory(config)`'s config, with the local embedder. */
export interface MemoryConfig extends Omit<CoreMemoryConfig, "embedder"> {
    embedder?: EmbedderConfig;
}

/** Fact-based AI memory: `add` conversations, `search` what was learned. */
export declare class Memory extends CoreMemory {
    constructor(config?: MemoryConfig);
    static fromConfig(config?: MemoryConfig): Memory;
    static open(config?: MemoryConfig): Promise<Memory>;
}
