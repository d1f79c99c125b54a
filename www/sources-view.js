// A memory's sources under it: the messages it was extracted from (`memory.sources(id)`), oldest first, each
// with its role, time, conversation and an excerpt, and whether it made the memory (ADD) or changed it (UPDATE).
// See docs/sources.md.

/** Toggles the sources list of the memory row `node`; reads them from `memory` each time it opens. */
export async function toggleSources(memory, node) {
  const list = node.querySelector(".sources");
  if (!list.hidden) return void (list.hidden = true);
  const sources = await memory.sources(node.dataset.id);
  list.replaceChildren(...(sources.length ? sources.map(item) : [none()]));
  list.hidden = false;
}

function item(source) {
  const entry = document.createElement("li");
  entry.dataset.id = source.id;
  entry.dataset.event = source.event;
  entry.innerHTML = '<span class="tag"></span> <span class="who"></span> <q class="excerpt"></q> <span class="where muted"></span>';
  const tag = entry.querySelector(".tag");
  tag.classList.add(source.event);
  tag.textContent = source.event;
  entry.querySelector(".who").textContent = [source.role, source.createdAt && when(source.createdAt)].filter(Boolean).join(" · ");
  entry.querySelector(".excerpt").textContent = source.excerpt;
  entry.querySelector(".where").textContent = source.conversationId ? `conversation ${source.conversationId}` : "";
  entry.title = `message ${source.id}`;
  return entry;
}

function none() {
  const entry = document.createElement("li");
  entry.className = "muted";
  entry.textContent = "No sources recorded (written before sources were kept, or by hand).";
  return entry;
}

function when(iso) {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : date.toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" });
}
