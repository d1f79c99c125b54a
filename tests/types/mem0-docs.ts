// Type test: every config of mem0's docs pages (tests/fixtures/mem0-docs/, copied verbatim) is a MemoryConfig of
// memwasm/mem0 as a mem0 page writes it (`const config = {…}`, so string values are widened to string), as it is
// for mem0ai/oss. Run by scripts/suites/25-types.sh: tsc -p tests/types.
import type { MemoryConfig } from "../../pkg/mem0.js";
import { CONFIGS as LLMS } from "../fixtures/mem0-docs/llms.mjs";
import { CONFIGS as EMBEDDERS } from "../fixtures/mem0-docs/embedders.mjs";
import { CONFIGS as RERANKERS } from "../fixtures/mem0-docs/rerankers.mjs";
import { CONFIGS as VECTOR_STORES } from "../fixtures/mem0-docs/vector-stores.mjs";

export const mem0Configs: MemoryConfig[] = [...LLMS, ...EMBEDDERS, ...RERANKERS, ...VECTOR_STORES].map((entry) =>
  entry.config(),
);
