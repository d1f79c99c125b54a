// What the Worker benches (worker.mjs, worker-tenant.mjs) ask of the service in local workerd: timed calls,
// the seeding of one user's memories, and the isolate's wasm memory through the test hook.

/** The middle value (the upper one of an even count), as the Worker tables have always reported. */
export const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** `method path` timed; throws unless it answers 200. */
export async function timed(worker, method, path) {
  const started = performance.now();
  const response = await worker.call(method, path);
  const ms = performance.now() - started;
  if (response.status !== 200) throw new Error(`${path}: ${response.status} ${JSON.stringify(response.body).slice(0, 300)}`);
  return { ms, response };
}

/** Adds `n` memories for `user`, `batch` messages per `infer: false` add, the i-th with `text(i)`; returns the first id. */
export async function seedUser(worker, user, n, text, batch = 500) {
  let first;
  for (let done = 0; done < n; done += batch) {
    const messages = Array.from({ length: Math.min(batch, n - done) }, (_, j) => ({ role: "user", content: text(done + j) }));
    const added = await worker.call("POST", "/v1/memories/", { body: { messages, user_id: user, infer: false } });
    if (added.status !== 200 || added.body.results.length !== messages.length) {
      throw new Error(`seeding ${user}: ${added.status} ${JSON.stringify(added.body).slice(0, 300)}`);
    }
    first ??= added.body.results[0].id;
  }
  return first;
}

/** The wasm memory, in bytes, of the isolate that runs tenant acme's object (test hook `/__do/memory`). */
/** How each scope the object's warm engine loaded was read (test hook `/__do/scope-loads`). */
export async function scopeLoads(worker) {
  const namespace = await worker.mf.getDurableObjectNamespace("TENANTS");
  const stub = namespace.get(namespace.idFromName("acme"));
  const response = await stub.fetch("http://memwasm.internal/__do/scope-loads", { headers: { "x-memwasm-tenant": "acme" } });
  return (await response.json()).loads;
}

export async function wasmBytes(worker) {
  const namespace = await worker.mf.getDurableObjectNamespace("TENANTS");
  const stub = namespace.get(namespace.idFromName("acme"));
  const response = await stub.fetch("http://memwasm.internal/__do/memory", { headers: { "x-memwasm-tenant": "acme" } });
  return (await response.json()).wasmBytes;
}
