// Types of memwasm/local-embedder: all-MiniLM-L6-v2 on the device, in its own .wasm.

/** Where the model comes from, and how it runs. */
export interface LocalEmbedderOptions {
    /** Default `"all-MiniLM-L6-v2"`; another BERT-style model needs `modelConfig`. */
    model?: "all-MiniLM-L6-v2" | (string & {});
    /** `model.safetensors` (f32, f16 or bf16, or the int8 weights file): a URL (cached with the Cache API in
     * browsers), a file path in Node, or the bytes. */
    weights: string | URL | ArrayBuffer | ArrayBufferView;
    /** `tokenizer.json`: a URL, a file path in Node, its text (starting with `{`) or its bytes. */
    tokenizer: string | URL | ArrayBuffer | ArrayBufferView;
    /** The model's Hugging Face `config.json` (object or text), for a model other than all-MiniLM-L6-v2. */
    modelConfig?: string | object;
    /** `"int8"`: quantise the linear layers and the word table to int8 at load (one scale per output
     * channel; activations per row at run time; integer dot products): faster and a quarter of the memory,
     * vectors within cosine 0.99 of f32. Default `"none"`: f32. The int8 weights file always runs int8.
     * Another value is `EMBEDDER_LOAD`. */
    quantization?: "none" | "int8";
    /** Browsers: load and run the model in a module Web Worker, so embedding never blocks the page. */
    worker?: boolean;
    /** Node: run this many copies of the model in worker threads (default 1: in the calling thread). An
     * `embed` call's texts are sorted by length and dealt out among them, so a long list embeds up to
     * `threads` times faster on as many free cores; each thread holds its own copy of the weights. An integer
     * from 1 to 64, else `EMBEDDER_LOAD`. Browsers ignore it. */
    threads?: number;
    /** Keep downloads in the Cache API (default `true`; browsers and workers only). */
    cache?: boolean;
    /** Called as each download arrives (not for cached or in-memory sources). */
    onProgress?: (progress: { what: "weights" | "tokenizer"; loaded: number; total: number }) => void;
}

/** A loaded embedder. Failures reject with an `Error` whose `code` is `EMBEDDER_LOAD`, `EMBEDDER_INPUT` or
 * `EMBEDDER_INFERENCE`. */
export interface LocalEmbedder {
    readonly model: string;
    /** 384 for all-MiniLM-L6-v2. */
    readonly dimensions: number;
    /** How the linear layers run: `"int8"` when asked for or loaded from the int8 weights file. */
    readonly quantization: "none" | "int8";
    /** The Web Worker, with `worker: true`. */
    readonly worker?: unknown;
    /** The number of worker threads, with `threads` above 1 (Node). */
    readonly threads?: number;
    /** One unit vector per text (texts past 256 tokens are truncated). The texts are sorted by token count and
     * cut into forward passes of like lengths, at most 64 texts each. */
    embed(texts: readonly string[]): Promise<Float32Array[]>;
    /** The token ids of `text`, `[CLS]` and `[SEP]` included. */
    tokenIds(text: string): Promise<number[]>;
    /** Frees the model (terminates the worker). */
    close(): void;
}

/** Loads the module, the weights and the tokenizer. Rejects with `code: "EMBEDDER_LOAD"` when one is missing
 * or corrupt. */
export function createLocalEmbedder(options: LocalEmbedderOptions): Promise<LocalEmbedder>;

/** Where a cross-encoder reranker comes from, and how it runs. */
export interface LocalRerankerOptions {
    /** A name for messages; default `"ms-marco-MiniLM"`. */
    model?: string;
    /** A cross-encoder's `model.safetensors` (BERT for sequence classification with one label, e.g.
     * cross-encoder/ms-marco-MiniLM-L-6-v2 or -L-12-v2; f32, f16, bf16 or the int8 weights file): a URL
     * (cached with the Cache API in browsers), a file path in Node, or the bytes. */
    weights: string | URL | ArrayBuffer | ArrayBufferView;
    /** `tokenizer.json`: a URL, a file path in Node, its text (starting with `{`) or its bytes. */
    tokenizer: string | URL | ArrayBuffer | ArrayBufferView;
    /** The model's `config.json` (object or text); default ms-marco-MiniLM's (384 wide, 12 heads), with as
     * many layers as the weights hold. */
    modelConfig?: string | object;
    /** `"int8"`: quantise the encoder's linear layers at load, as for the embedder. Default `"none"`. */
    quantization?: "none" | "int8";
    /** Browsers: load and run the model in a module Web Worker. Node ignores it. */
    worker?: boolean;
    /** Node: score in this many worker threads (default 1: in the calling thread), each with its own copy of
     * the weights; a call's documents are dealt out among them, so it takes about `1 / threads` of the time
     * on as many free cores, and the event loop stays free. An integer from 1 to 64, else `EMBEDDER_LOAD`.
     * Browsers ignore it. */
    threads?: number;
    /** Keep downloads in the Cache API (default `true`; browsers and workers only). */
    cache?: boolean;
    /** Called as each download arrives. */
    onProgress?: (progress: { what: "weights" | "tokenizer"; loaded: number; total: number }) => void;
}

/** A loaded cross-encoder. Failures reject with an `Error` whose `code` is `EMBEDDER_LOAD`, `EMBEDDER_INPUT`
 * or `EMBEDDER_INFERENCE`. */
export interface LocalReranker {
    readonly model: string;
    readonly quantization: "none" | "int8";
    /** The Web Worker, with `worker: true`. */
    readonly worker?: unknown;
    /** The number of worker threads, with `threads` above 1 (Node). */
    readonly threads?: number;
    /** Each document's relevance to `query`, in the documents' order: the sigmoid of the model's logit
     * (0–1), as sentence-transformers' `CrossEncoder.predict`. A pair is `[CLS] query [SEP] document [SEP]`,
     * cut to 512 tokens (the longer text loses tokens first). */
    rerank(query: string, documents: readonly string[]): Promise<number[]>;
    /** Frees the model (terminates the worker). */
    close(): void;
}

/** Loads a cross-encoder reranker. Rejects with `code: "EMBEDDER_LOAD"` when the weights or the tokenizer are
 * missing or corrupt, or the weights have no classifier. */
export function createLocalReranker(options: LocalRerankerOptions): Promise<LocalReranker>;

/** The int8 weights file (a quarter of the bytes) for the bytes of an f32, f16 or bf16 `model.safetensors`:
 * the linear layers' weights and the word table as int8 with one scale per row. Load it as `weights`; it
 * runs as `quantization: "int8"` does. Rejects with `code: "EMBEDDER_LOAD"` when the bytes are not
 * safetensors. */
export function quantizeWeights(weights: ArrayBuffer | ArrayBufferView): Promise<Uint8Array>;

/** The Cache API cache that holds downloaded weights and tokenizers. */
export const CACHE_NAME: string;

/** Whether `url` is already in that cache (browsers; `false` in Node). */
export function isCached(url: string | URL, base?: string): Promise<boolean>;
