// A real Chroma server (PyPI chromadb, installed by scripts/setup.d/60-chroma.sh) on 127.0.0.1 for the
// tests: started on a free port with a data directory of its own, stopped and started again on the same
// path and port (restart persistence, outages), removed at the end.
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { homedir, tmpdir } from "node:os";
import { join } from "node:path";

/** The `chroma` binary: $CHROMA_BIN, else $CHROMA_VENV/bin/chroma, else the setup script's venv. */
export function chromaBinary() {
  const venv = process.env.CHROMA_VENV || join(homedir(), ".cache/memwasm/chroma-py");
  const bin = process.env.CHROMA_BIN || join(venv, "bin/chroma");
  if (!existsSync(bin)) throw new Error(`no chroma binary at ${bin}: run bash scripts/setup.sh chroma`);
  return bin;
}

function freePort() {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Starts Chroma; resolves to `{url, port, path, stop(), start(), close(), api(path, body?)}`. */
export async function startChroma() {
  const bin = chromaBinary();
  const path = mkdtempSync(join(tmpdir(), "memwasm-chroma-"));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  let child = null;
  let log = "";

  const handle = {
    url,
    port,
    path,
    /** Starts the server (again) on the same path and port and waits until it answers. */
    async start() {
      log = "";
      child = spawn(bin, ["run", "--path", join(path, "data"), "--port", String(port), "--host", "127.0.0.1"], {
        cwd: path,
        stdio: ["ignore", "pipe", "pipe"],
      });
      child.stdout.on("data", (chunk) => (log += chunk));
      child.stderr.on("data", (chunk) => (log += chunk));
      const deadline = Date.now() + 60_000;
      while (Date.now() < deadline) {
        if (child.exitCode !== null) throw new Error(`chroma exited (${child.exitCode}):\n${log.slice(-2000)}`);
        try {
          const reply = await fetch(`${url}/api/v2/heartbeat`);
          if (reply.ok) return;
        } catch {}
        await sleep(100);
      }
      throw new Error(`chroma did not answer within 60 s:\n${log.slice(-2000)}`);
    },
    /** Stops the server and waits until it has exited (its data stays). */
    async stop() {
      const running = child;
      child = null;
      if (!running || running.exitCode !== null) return;
      const exited = new Promise((resolve) => running.once("exit", resolve));
      running.kill("SIGTERM");
      const timer = setTimeout(() => running.kill("SIGKILL"), 10_000);
      await exited;
      clearTimeout(timer);
    },
    /** Stops the server and removes its data. */
    async close() {
      await handle.stop();
      rmSync(path, { recursive: true, force: true });
    },
    /** A request to Chroma's v2 API (`path` under /api/v2/), its JSON reply. */
    async api(apiPath, body) {
      const init = body === undefined ? {} : { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) };
      const reply = await fetch(`${url}/api/v2/${apiPath}`, init);
      const json = await reply.json();
      if (!reply.ok) throw new Error(`chroma ${apiPath}: ${reply.status} ${JSON.stringify(json)}`);
      return json;
    },
    /** The ids, metadatas and vectors a collection of the default database holds. */
    async stored(collectionName) {
      const base = "tenants/default_tenant/databases/default_database/collections";
      const collection = await handle.api(`${base}/${collectionName}`);
      const got = await handle.api(`${base}/${collection.id}/get`, { include: ["metadatas", "embeddings"] });
      return got.ids.map((id, i) => ({ id, metadata: got.metadatas[i], embedding: got.embeddings[i] }));
    },
  };
  await handle.start();
  return handle;
}
