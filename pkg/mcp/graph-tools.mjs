// The reference memory server's knowledge-graph tools over graph memory, answering as
// @modelcontextprotocol/server-memory does: what exists is not created again and each answer lists only what
// is new. An entity is {name, entityType, observations}: its observations are its description and the texts
// of the memories it is linked to. A relation is {from, to, relationType}. The tools write the graph directly
// (no LLM): an observation is a memory of its own, linked to its entity; deleting an entity's last observation
// keeps the entity, as the reference server does. Names match as graph memory keys them (any case and spacing).

import { memoryTools, scopeOf, toolError } from "./memory-tools.mjs";

/** The tools that need graph memory: unlisted when it is off (delete_entities stays, for mem0's form). */
export const GRAPH_ONLY = new Set(["create_entities", "create_relations", "add_observations", "delete_observations",
  "delete_relations", "read_graph", "search_nodes", "open_nodes"]);

/** The error of a graph tool called with graph memory off. */
export const graphOff = (tool) => toolError("NOT_SUPPORTED", `${tool} needs graph memory, which is off in this server ` +
  "(started with --no-graph). Use the memory tools (add_memory, search_memories, …), or start the server without --no-graph.");

/** An entity name as graph memory keys it. */
const nameKey = (name) => name.trim().split(/\s+/).join(" ").toLowerCase();
const same = (a, b) => nameKey(a) === nameKey(b);
/** A relation as graph memory keys it: its ends' keys and its type in snake case. */
const relationKey = (r) =>
  JSON.stringify([nameKey(r.from), r.relationType.split(/[\s-]+/).filter(Boolean).join("_").toLowerCase(), nameKey(r.to)]);
const toRelation = (r) => ({ from: r.source, to: r.target, relationType: r.relation });
const unique = (texts) => [...new Set(texts)];

async function toEntity(memory, entity) {
  const texts = await Promise.all(entity.memoryIds.map(async (id) => (await memory.get(id))?.memory));
  const observations = [entity.description, ...texts].filter((text) => typeof text === "string" && text !== "");
  return { name: entity.name, entityType: entity.type, observations: unique(observations) };
}

/** The relations of `scope` that touch the entities named, each once, by key. */
async function relationsOf(memory, scope, names) {
  const relations = new Map();
  for (const name of unique(names).filter((name) => name.trim() !== "")) {
    for (const relation of (await memory.getRelations(name, scope)).results.map(toRelation)) {
      relations.set(relationKey(relation), relation);
    }
  }
  return relations;
}

/** The scope's graph: entities (those `keep` accepts) and the relations that touch them. */
async function graphOf(memory, scope, keep = () => true) {
  const { results } = await memory.getEntities(scope);
  const entities = (await Promise.all(results.map((e) => toEntity(memory, e)))).filter(keep);
  const relations = await relationsOf(memory, scope, entities.map((e) => e.name));
  return { entities, relations: [...relations.values()] };
}

/** The entity of `scope` named `name`, or undefined. */
const entityNamed = async (memory, scope, name) => (await memory.getEntities(scope)).results.find((e) => same(e.name, name));

/** Stores each text as a memory of `scope`, as it is (no LLM); their ids. */
async function storeTexts(memory, scope, texts) {
  const ids = [];
  for (const text of texts) ids.push(...(await memory.add(text, { ...scope, infer: false })).results.map((r) => r.id));
  return ids;
}

export const graphTools = {
  async read_graph(args, { memory, ...ctx }) {
    return graphOf(memory, scopeOf(args, ctx));
  },

  async search_nodes(args, { memory, ...ctx }) {
    const q = args.query.toLowerCase();
    const hit = (text) => text.toLowerCase().includes(q);
    return graphOf(memory, scopeOf(args, ctx), (e) => hit(e.name) || hit(e.entityType) || e.observations.some(hit));
  },

  async open_nodes(args, { memory, ...ctx }) {
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
    if (!ctx.graph) throw graphOff("delete_entities with entityNames");
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

  /** Creates the entities whose names the scope does not hold yet (an existing one is left as it is); those. */
  async create_entities(args, { memory, ...ctx }) {
    const scope = scopeOf(args, ctx);
    const taken = new Set((await memory.getEntities(scope)).results.map((e) => nameKey(e.name)));
    const created = [];
    for (const entity of args.entities) {
      if (taken.has(nameKey(entity.name))) continue;
      taken.add(nameKey(entity.name));
      const memoryIds = await storeTexts(memory, scope, unique(entity.observations ?? []));
      const written = await memory.addToGraph({ entities: [{ name: entity.name, type: entity.entityType }], memoryIds }, scope);
      created.push(await toEntity(memory, written.entities[0]));
    }
    return { entities: created };
  },

  /** Creates the relations the scope does not hold yet; those, in the order asked. */
  async create_relations(args, { memory, ...ctx }) {
    const scope = scopeOf(args, ctx);
    const taken = await relationsOf(memory, scope, args.relations.map((r) => r.from));
    const fresh = [];
    for (const relation of args.relations) {
      if (taken.has(relationKey(relation))) continue;
      taken.set(relationKey(relation), relation);
      fresh.push(relation);
    }
    if (fresh.length === 0) return { relations: [] };
    const relations = fresh.map((r) => ({ source: r.from, relation: r.relationType, target: r.to }));
    const written = new Map((await memory.addToGraph({ relations }, scope)).relations.map((r) => [relationKey(toRelation(r)), toRelation(r)]));
    return { relations: fresh.map((r) => written.get(relationKey(r))) };
  },

  /** Adds to each entity the observations it does not have yet; those. An unknown entity fails the call,
   * adding nothing. */
  async add_observations(args, { memory, ...ctx }) {
    const scope = scopeOf(args, ctx);
    for (const { entityName } of args.observations) {
      if (!(await entityNamed(memory, scope, entityName))) throw toolError("NOT_FOUND", `Entity with name ${entityName} not found`);
    }
    const results = [];
    for (const { entityName, contents } of args.observations) {
      const entity = await entityNamed(memory, scope, entityName);
      const present = new Set((await toEntity(memory, entity)).observations);
      const added = unique(contents).filter((text) => !present.has(text));
      if (added.length > 0) {
        await memory.addToGraph({ entities: [{ name: entity.name }], memoryIds: await storeTexts(memory, scope, added) }, scope);
      }
      results.push({ entityName, addedObservations: added });
    }
    return { results };
  },

  /** Deletes the observations named (every memory carrying one); counts the observations, not the memories. */
  async delete_observations(args, { memory, ...ctx }) {
    const scope = scopeOf(args, ctx);
    let [deletedCount, requested] = [0, 0];
    const missingEntities = [];
    for (const { entityName, observations } of args.deletions) {
      const doomed = new Set(observations);
      requested += doomed.size;
      const entity = await entityNamed(memory, scope, entityName);
      if (!entity) {
        missingEntities.push(entityName);
        continue;
      }
      const gone = new Set();
      for (const id of entity.memoryIds) {
        const item = await memory.get(id);
        if (item && doomed.has(item.memory)) {
          await memory.delete(id);
          gone.add(item.memory);
        }
      }
      deletedCount += gone.size;
      // Deleting an entity's last memory deletes the entity; the reference server keeps it.
      if (!(await entityNamed(memory, scope, entity.name))) {
        await memory.addToGraph({ entities: [{ name: entity.name, type: entity.type, description: entity.description }] }, scope);
      }
    }
    const message = deletedCount === requested ? "Observations deleted successfully"
      : `Deleted ${deletedCount} of ${requested} observations.` +
        (missingEntities.length ? ` Entities not found: ${missingEntities.join(", ")}` : "");
    return { success: true, message, deletedCount, missingEntities };
  },

  async delete_relations(args, { memory, ...ctx }) {
    const triples = args.relations.map((r) => ({ source: r.from, relation: r.relationType, target: r.to }));
    const { deleted } = await memory.deleteRelations(triples, scopeOf(args, ctx));
    const message = deleted === triples.length ? "Relations deleted successfully"
      : `Deleted ${deleted} of ${triples.length} relations (the others were not in the graph).`;
    return { success: true, message, deletedCount: deleted };
  },
};
