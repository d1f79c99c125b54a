// The reference memory server's knowledge-graph tools over graph memory. An entity is
// {name, entityType, observations}: its observations are its description and the texts of the memories it
// are linked to. A relation is {from, to, relationType}. The tools write the graph directly (no LLM): an
// observation is a memory of its own, linked to its entity; deleting an entity's last observation keeps the
// entity, as the reference server does.

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

/** Graph memory is on unless the server was started with --no-graph. */
function needsGraph(ctx, tool) {
  if (!ctx.graph) {
    throw toolError("NOT_SUPPORTED", `${tool} needs graph memory, which is off in this server (started with ` +
      "--no-graph). Use the memory tools (add_memory, search_memories, …), or start the server without it.");
  }
}

/** Stores each text as a memory of `scope`, as it is (no LLM); their ids. */
async function storeTexts(memory, scope, texts) {
  const ids = [];
  for (const text of texts) ids.push(...(await memory.add(text, { ...scope, infer: false })).results.map((r) => r.id));
  return ids;
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
    for (const entity of args.entities) {
      const memoryIds = await storeTexts(memory, scope, entity.observations ?? []);
      await memory.addToGraph({ entities: [{ name: entity.name, type: entity.entityType }], memoryIds }, scope);
    }
    return graphOf(memory, scope, (e) => args.entities.some((a) => same(a.name, e.name))).then(({ entities }) => ({ entities }));
  },

  async create_relations(args, { memory, ...ctx }) {
    needsGraph(ctx, "create_relations");
    const relations = args.relations.map((r) => ({ source: r.from, relation: r.relationType, target: r.to }));
    const written = await memory.addToGraph({ relations }, scopeOf(args, ctx));
    return { relations: written.relations.map(toRelation) };
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
    for (const [i, { contents }] of args.observations.entries()) {
      await memory.addToGraph({ entities: [{ name: names[i] }], memoryIds: await storeTexts(memory, scope, contents) }, scope);
    }
    return { results: args.observations.map((o) => ({ entityName: o.entityName, addedObservations: o.contents })) };
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
      // Deleting an entity's last memory deletes the entity; the reference server keeps it.
      if (!(await memory.getEntities(scope)).results.some((e) => same(e.name, entity.name))) {
        await memory.addToGraph({ entities: [{ name: entity.name, type: entity.type, description: entity.description }] }, scope);
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
