// `memwasm/mem0` (workerd condition): everything of index.workerd.mjs, with the Memory of mem0.mjs.
import { Memory as Base } from "./index.workerd.mjs";
import { mem0Memory } from "./mem0.mjs";

export * from "./index.workerd.mjs";
export const Memory = mem0Memory(Base);
