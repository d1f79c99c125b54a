// `memwasm/mem0` (browser condition): everything of index.browser.mjs, with the Memory of mem0.mjs.
import { Memory as Base } from "./index.browser.mjs";
import { mem0Memory } from "./mem0.mjs";

export * from "./index.browser.mjs";
export const Memory = mem0Memory(Base);
