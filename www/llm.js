// The assistant's reply in the conversation: one chat call to the configured provider, with what the
// memory recalls as system context. (The memory library makes its own calls for extraction; this is
// only the page answering back.)

const SYSTEM = "You are a friendly assistant. Use what you remember about the user when it helps; keep replies short.";

/** Sends `turns` ([{role, content}]) with `memoryText` as context; returns the reply text. */
export async function answer(settings, memoryText, turns) {
  const system = memoryText ? `${SYSTEM}\n\n${memoryText}` : SYSTEM;
  const key = settings.apiKey;
  switch (settings.provider) {
    case "anthropic": {
      const body = { model: settings.model || "claude-3-5-haiku-latest", max_tokens: 512, system, messages: turns };
      const reply = await post(`${settings.baseUrl || "https://api.anthropic.com/v1"}/messages`, body, {
        "x-api-key": key, "anthropic-version": "2023-06-01", "anthropic-dangerous-direct-browser-access": "true",
      });
      return reply.content?.map((part) => part.text ?? "").join("") ?? "";
    }
    case "gemini": {
      const model = settings.model || "gemini-2.0-flash";
      const body = {
        systemInstruction: { parts: [{ text: system }] },
        contents: turns.map((t) => ({ role: t.role === "assistant" ? "model" : "user", parts: [{ text: t.content }] })),
      };
      const base = settings.baseUrl || "https://generativelanguage.googleapis.com/v1beta";
      const reply = await post(`${base}/models/${model}:generateContent`, body, { "x-goog-api-key": key });
      return reply.candidates?.[0]?.content?.parts?.map((p) => p.text ?? "").join("") ?? "";
    }
    case "ollama": {
      const body = { model: settings.model || "llama3.2", stream: false, messages: [{ role: "system", content: system }, ...turns] };
      const reply = await post(`${settings.baseUrl || "http://localhost:11434"}/api/chat`, body, {});
      return reply.message?.content ?? "";
    }
    default: {
      const body = { model: settings.model || "gpt-4o-mini", messages: [{ role: "system", content: system }, ...turns] };
      const headers = key ? { authorization: `Bearer ${key}` } : {};
      const reply = await post(`${settings.baseUrl || "https://api.openai.com/v1"}/chat/completions`, body, headers);
      return reply.choices?.[0]?.message?.content ?? "";
    }
  }
}

async function post(url, body, headers) {
  let response;
  try {
    response = await fetch(url, { method: "POST", headers: { "content-type": "application/json", ...headers }, body: JSON.stringify(body) });
  } catch (cause) {
    throw Object.assign(new Error(`could not reach ${new URL(url).host}: ${cause.message}`), { code: "LLM_NETWORK" });
  }
  const text = await response.text();
  if (!response.ok) throw Object.assign(new Error(`HTTP ${response.status}: ${text.slice(0, 200)}`), { code: "LLM_HTTP" });
  try {
    return JSON.parse(text);
  } catch {
    throw Object.assign(new Error("reply is not JSON"), { code: "LLM_RESPONSE" });
  }
}
