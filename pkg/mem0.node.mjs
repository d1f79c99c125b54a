// `memwasm/mem0` (node condition): everything of index.node.mjs, with the Memory of mem0.mjs.
import { Memory as Base } from "./index.node.mjs";
import { mem0Memory } from "./mem0.mjs";

export * from "./index.node.mjs";
export const Memory = mem0Memory(Base);
