// A stand-in for a Worker's AI binding (`env.AI`), for Node tests: the real binding needs a Cloudflare
// account. `run(model, inputs)` does what the binding does, over Cloudflare's REST API shape: it posts
// `inputs` to POST /client/v4/accounts/{account}/ai/run/{model} on the scripted server, resolves to the
// envelope's `result`, and throws an Error when `success` is false. Every call is recorded in `calls`
// (`{model, inputs}`, inputs deep-copied), so tests can assert the model names and input shapes.
//
//   const ai = workersAiBinding(server);
//   new Memory({ llm: { provider: "workers-ai", binding: ai }, … });
//   ai.calls[0] // { model: "@cf/meta/llama-3.1-8b-instruct", inputs: { messages: [...], … } }

export function workersAiBinding(server, { account = "test-account", token = "test-token" } = {}) {
  const calls = [];
  return {
    calls,
    async run(model, inputs) {
      calls.push({ model, inputs: structuredClone(inputs) });
      const res = await fetch(`${server.url}/client/v4/accounts/${account}/ai/run/${model}`, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
        body: JSON.stringify(inputs),
      });
      const envelope = await res.json();
      if (!envelope.success) throw new Error(envelope.errors.map((e) => `${e.code}: ${e.message}`).join("; "));
      return envelope.result;
    },
  };
}
