// A plain JS Worker that uses the npm package with a KV binding — docs/worker.md's "The npm package in your Worker".
// POST /add {text, userId} adds; GET /search?q=…&userId=… searches; GET /history?id=… shows a history.
import { Memory } from "memwasm";

export default {
  async fetch(request, env) {
    const url = new URL(request.url);
    try {
      // One Memory per request: it loads each scope from KV on first use, so every request sees KV as it is now.
      const memory = new Memory({
        llm: { provider: "openai", config: { baseUrl: env.OPENAI_BASE_URL, apiKey: env.OPENAI_API_KEY } },
        embedder: { provider: "openai", config: { baseUrl: env.OPENAI_BASE_URL, apiKey: env.OPENAI_API_KEY, dimensions: 64 } },
        storage: { provider: "cloudflare-kv", binding: env.MEMORY_KV },
        retry: { maxRetries: 0 },
      });
      if (request.method === "POST" && url.pathname === "/add") {
        const { text, userId } = await request.json();
        return Response.json(await memory.add(text, { userId }));
      }
      if (url.pathname === "/search") {
        const found = await memory.search(url.searchParams.get("q"), { userId: url.searchParams.get("userId") });
        return Response.json(found);
      }
      if (url.pathname === "/history") return Response.json(await memory.history(url.searchParams.get("id")));
      return new Response("not found", { status: 404 });
    } catch (error) {
      return Response.json({ error: { code: error.code, message: error.message } }, { status: 400 });
    }
  },
};
