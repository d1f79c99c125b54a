// The reference memory server's knowledge-graph tools over graph memory. An entity is
// {name, entityType, observations}: its observations are its description and the texts of the memories it
// was extracted from. A relation is {from, to, relationType}. Graph memory is written by add() and its
// model, so the create/add tools store sentences through add() and return what the model extracted;
// delete_relations deletes the relations named.

import { memoryTools, scopeOf, toolError } from "./memory-tools.mjs";

const same = (a, b) => a.trim().toLowerCase() === b.trim().toLowerCase();
const toRelation = (r) => ({ from: r.source, to: r.target, relationType: r.relation });
const tripleKey = (r) => JSON.stringify([r.from.toLowerCase(), r.relationType, r.to.toLowerCase()]);

async function toEntity(memory, entity) {
  const texts = await Promise.all(entity.memoryIds.map(async (id) => (await memory.get(id))?.memory));
  const observations = [entity.description, ...texts].filter((text) => typeof text === "string" && text !== "");
  return { name: entity.name, entityType: entity.type, observations: [...new Set(observations)] };
}

/** The scope's graph: entities (those `keep` accepts) and the relations that touch them. */
async function graphOf(memory, scope, keep = () => true) {
  const { results } = await memory.getEntities(scope);
  const entities = (await Promise.all(results.map((e) => toEntity(memory, e)))).filter(keep);
  const relations = new Map();
  for (const entity of entities) {
    for (const relation of (await memory.getRelations(entity.name, scope)).results.map(toRelation)) {
      relations.set(tripleKey(relation), relation);
    }
  }
  return { entities, relations: [...relations.values()] };
}

/** Graph memory is written by an LLM: without one (--no-llm, --weights) or with --no-graph it is off. */
function needsGraph(ctx, tool) {
  if (!ctx.graph) {
    throw toolError("NOT_SUPPORTED", `${tool} needs graph memory, which is off in this server (started with ` +
      "--no-graph, --no-llm or --weights): graph memory is written by an LLM. Use the memory tools (add_memory, " +
      "search_memories, …), or start the server with a model (OPENAI_API_KEY).");
  }
}

async function addSentences(memory, scope, sentences) {
  return memory.add(sentences.map((content) => ({ role: "user", content })), scope);
}

export const graphTools = {
  async read_graph(args, { memory, ...ctx }) {
    needsGraph(ctx, "read_graph");
    return graphOf(memory, scopeOf(args, ctx));
  },

  async search_nodes(args, { memory, ...ctx }) {
    needsGraph(ctx, "search_nodes");
    const q = args.query.toLowerCase();
    const hit = (text) => text.toLowerCase().includes(q);
    return graphOf(memory, scopeOf(args, ctx), (e) => hit(e.name) || hit(e.entityType) || e.observations.some(hit));
  },

  async open_nodes(args, { memory, ...ctx }) {
    needsGraph(ctx, "open_nodes");
    return graphOf(memory, scopeOf(args, ctx), (e) => args.names.some((name) => same(name, e.name)));
  },

  async delete_entities(args, ctx) {
    if (args.entityNames == null) {
      if (["user_id", "agent_id", "run_id", "app_id"].every((key) => args[key] == null)) {
        throw toolError("SCOPE_REQUIRED", "Provide entityNames (graph entities), or user_id, agent_id, app_id or run_id " +
          "(the scope whose memories to delete).");
      }
      return memoryTools.delete_all_memories(args, ctx);
    }
    needsGraph(ctx, "delete_entities with entityNames");
    const { memory } = ctx;
    const scope = scopeOf(args, ctx);
    const present = (await memory.getEntities(scope)).results.map((e) => e.name);
    const deleted = [];
    const notFound = [];
    for (const name of args.entityNames) {
      const found = present.find((p) => same(p, name));
      if (found === undefined) notFound.push(name);
      else if (!deleted.includes(found)) deleted.push((await memory.deleteEntity(found, scope), found));
    }
    const message = notFound.length === 0 ? "Entities deleted successfully"
      : `Deleted ${deleted.length} of ${args.entityNames.length} entities. Not found: ${notFound.join(", ")}`;
    return { success: true, message, deleted, notFound };
  },

  async create_entities(args, { memory, ...ctx }) {
    needsGraph(ctx, "create_entities");
    const scope = scopeOf(args, ctx);
    const added = await addSentences(memory, scope, args.entities.map((e) =>
      [`${e.name} is a ${e.entityType}.`, ...e.observations].join(" ")));
    const { entities } = await graphOf(memory, scope, (e) => args.entities.some((a) => same(a.name, e.name)));
    return { entities, results: added.results, warnings: added.warnings };
  },

  async create_relations(args, { memory, ...ctx }) {
    needsGraph(ctx, "create_relations");
    const scope = scopeOf(args, ctx);
    const added = await addSentences(memory, scope, args.relations.map((r) =>
      `${r.from} ${r.relationType.replace(/_/g, " ")} ${r.to}.`));
    const wanted = new Set(args.relations.map((r) => tripleKey({ ...r, relationType: r.relationType.toLowerCase() })));
    const { relations } = await graphOf(memory, scope, (e) => args.relations.some((r) => same(r.from, e.name)));
    return { relations: relations.filter((r) => wanted.has(tripleKey(r))), results: added.results, warnings: added.warnings };
  },

  async add_observations(args, { memory, ...ctx }) {
    needsGraph(ctx, "add_observations");
    const scope = scopeOf(args, ctx);
    const present = (await memory.getEntities(scope)).results.map((e) => e.name);
    const names = args.observations.map(({ entityName }) => {
      const name = present.find((p) => same(p, entityName));
      if (name === undefined) throw toolError("NOT_FOUND", `Entity with name ${entityName} not found`);
      return name;
    });
    const added = await addSentences(memory, scope, args.observations.flatMap((o, i) =>
      o.contents.map((content) => `${names[i]}: ${content}`)));
    return {
      results: args.observations.map((o) => ({ entityName: o.entityName, addedObservations: o.contents })),
      events: added.results,
      warnings: added.warnings,
    };
  },

  async delete_observations(args, { memory, ...ctx }) {
    needsGraph(ctx, "delete_observations");
    const scope = scopeOf(args, ctx);
    const entities = (await memory.getEntities(scope)).results;
    let deletedCount = 0;
    const missingEntities = [];
    for (const { entityName, observations } of args.deletions) {
      const entity = entities.find((e) => same(e.name, entityName));
      if (!entity) {
        missingEntities.push(entityName);
        continue;
      }
      for (const id of entity.memoryIds) {
        const item = await memory.get(id);
        if (item && observations.includes(item.memory)) {
          await memory.delete(id);
          deletedCount += 1;
        }
      }
    }
    const requested = args.deletions.reduce((total, d) => total + d.observations.length, 0);
    const message = deletedCount === requested ? "Observations deleted successfully"
      : `Deleted ${deletedCount} of ${requested} observations.` +
        (missingEntities.length ? ` Entities not found: ${missingEntities.join(", ")}` : "");
    return { success: true, message, deletedCount, missingEntities };
  },

  async delete_relations(args, { memory, ...ctx }) {
    needsGraph(ctx, "delete_relations");
    const triples = args.relations.map((r) => ({ source: r.from, relation: r.relationType, target: r.to }));
    const { deleted } = await memory.deleteRelations(triples, scopeOf(args, ctx));
    const message = deleted === triples.length ? "Relations deleted successfully"
      : `Deleted ${deleted} of ${triples.length} relations (the others were not in the graph).`;
    return { success: true, message, deletedCount: deleted };
  },
};
