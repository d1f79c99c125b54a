// One scripted model server for the calling node:test file: started before its tests, closed after them,
// and reset before each one. Returns a stand-in that forwards to the server once it is up
// (`server.script(…)`, `server.baseUrl`, …), so a file declares `const server = scriptedServer();`.
import { after, before, beforeEach } from "node:test";
import { startScriptedServer } from "./scripted-server.mjs";

export function scriptedServer() {
  let real;
  before(async () => {
    real = await startScriptedServer({ port: 0 });
  });
  after(async () => {
    await real?.close();
  });
  beforeEach(() => real.reset());
  return new Proxy(
    {},
    {
      get(_, key) {
        const value = real?.[key];
        return typeof value === "function" ? value.bind(real) : value;
      },
    },
  );
}
