// A JS Worker that asks memwasm for the on-device embedder, which Workers cannot run: it answers with the
// error's code and message.
import { Memory } from "memwasm";

export default {
  async fetch() {
    try {
      new Memory({
        llm: { provider: "none" },
        embedder: { provider: "local", config: { weights: "https://models.test/model.safetensors", tokenizer: "https://models.test/tokenizer.json" } },
      });
      return Response.json({ constructed: true });
    } catch (error) {
      return Response.json({ code: error.code, message: error.message, isMemoryError: error.name === "MemoryError" });
    }
  },
};
