// The table of bench/rerank.mjs's figures: search() with and without the reranker stage.
const fmt = (ms) => (ms >= 100 ? ms.toFixed(0) : ms >= 10 ? ms.toFixed(1) : ms.toFixed(2));

/** Markdown lines for `rerank` (rerank.mjs's JSON), or a line saying why it was not measured. */
export function rerankTable(rerank) {
  if (!rerank || rerank.missing) return `The reranker stage (bench/rerank.mjs): not measured${rerank?.missing ? `: ${rerank.missing}` : ""}.`;
  const lines = [
    `The reranker stage: search(text, {limit: 10}) over ${rerank.n.toLocaleString("en")} memories, ${rerank.queries} queries × ` +
      `${rerank.rounds} rounds, with rerank: true against the local scripted server, which answers at once: what the library ` +
      "adds; a rerank service's or the LLM's own time comes on top.",
    "",
    "| reranker | candidates | median ms/query | added to the plain search |",
    "|---|---|---|---|",
  ];
  for (const f of rerank.figures) {
    const name = f.name === "plain" ? "none (the default search)" : f.name.startsWith("llm") ? "the LLM (llm_reranker)" : "a rerank service (Cohere's wire)";
    lines.push(`| ${name} | ${f.candidates || ""} | ${fmt(f.medianMs)} | ${f.candidates ? `${fmt(f.addedMs)} ms` : ""} |`);
  }
  const device = rerank.onDevice;
  lines.push("");
  if (!device || device.missing) {
    lines.push(`The on-device cross-encoder: not measured${device?.missing ? `: ${device.missing}` : ""}.`);
    return lines.join("\n");
  }
  lines.push(
    `The on-device cross-encoder (reranker: {provider: "local"}, ms-marco-MiniLM-L-12-v2, one thread): search(question, ` +
      `{limit: 10, rerank: true}) over ${device.turns} LOCOMO turns, ${device.queries} questions; nearly all of it is the model's ` +
      "forward passes, one per candidate.",
    "",
    "| weights | candidates | median ms/query |",
    "|---|---|---|",
  );
  for (const row of device.rows) lines.push(`| ${row.quantization === "int8" ? "int8" : "f32"} | ${row.candidates} | ${fmt(row.medianMs)} |`);
  return lines.join("\n");
}
