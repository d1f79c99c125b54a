// Types of the whole public API (generated from the Rust crate into dist/).
export * from "./dist/memwasm.js";
