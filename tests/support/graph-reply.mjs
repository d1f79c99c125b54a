// The reply graph memory's model gives in the OpenAI wire: a chat completion calling its two tools,
// `extract_entities` and `extract_relations`. For the scripted server's `body` (sent verbatim).
export function graphToolCalls(entities, relations) {
  const call = (id, name, args) => ({ id, type: "function", function: { name, arguments: JSON.stringify(args) } });
  const message = {
    role: "assistant",
    content: null,
    tool_calls: [call("c1", "extract_entities", { entities }), call("c2", "extract_relations", { relations })],
  };
  return JSON.stringify({ id: "g", object: "chat.completion", choices: [{ index: 0, message, finish_reason: "tool_calls" }] });
}
