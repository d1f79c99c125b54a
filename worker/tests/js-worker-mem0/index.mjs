// mem0 code in a Worker, on `memwasm/mem0`: POST /add {text, userId, kv} adds a memory (`infer: false`) with a
// Memory made for the request, in KV when `kv` is true; it answers with what the user's memories are then and
// what the request's `new Memory` logged with console.warn (the startup warnings).
import { Memory } from "memwasm/mem0";

export default {
  async fetch(request, env) {
    const { text, userId, kv } = await request.json();
    const warned = [];
    const warn = console.warn;
    console.warn = (...args) => warned.push(args.join(" "));
    try {
      const memory = new Memory({
        llm: { provider: "openai", config: { baseURL: env.OPENAI_BASE_URL, apiKey: env.OPENAI_API_KEY } },
        embedder: { provider: "openai", config: { baseURL: env.OPENAI_BASE_URL, apiKey: env.OPENAI_API_KEY, embeddingDims: 64 } },
        ...(kv ? { storage: { provider: "cloudflare-kv", binding: env.MEMORY_KV } } : {}),
      });
      await memory.add(text, { userId, infer: false });
      const { results } = await memory.getAll({ filters: { user_id: userId } });
      return Response.json({ memories: results.map((m) => m.memory), warned });
    } catch (error) {
      return Response.json({ error: { code: error.code, message: error.message }, warned }, { status: 400 });
    } finally {
      console.warn = warn;
    }
  },
};
