// A user's Worker: the README's "The npm package in your Worker", with the model service's URL as a var.
// POST / {text, userId} adds; GET /?q=…&userId=… searches.
import { Memory } from "memwasm";

export default {
  async fetch(request, env) {
    // One Memory per request: each scope is loaded from KV on its first use.
    const memory = new Memory({
      llm: { provider: "openai", config: { baseUrl: env.OPENAI_BASE_URL, apiKey: env.OPENAI_API_KEY } },
      embedder: { provider: "openai", config: { baseUrl: env.OPENAI_BASE_URL, apiKey: env.OPENAI_API_KEY, dimensions: 64 } },
      storage: { provider: "cloudflare-kv", binding: env.MEMORY_KV },
      retry: { maxRetries: 0 },
    });
    try {
      if (request.method === "POST") {
        const { text, userId } = await request.json();
        return Response.json(await memory.add(text, { userId }));
      }
      const url = new URL(request.url);
      return Response.json(await memory.search(url.searchParams.get("q") ?? "", { userId: url.searchParams.get("userId") ?? undefined }));
    } catch (error) {
      return Response.json({ error: { code: error.code, message: error.message } }, { status: 400 });
    }
  },
};
