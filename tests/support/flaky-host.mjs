// A model host on 127.0.0.1 that is down or up, for tests of dead hosts (docs/timeouts-and-retries.md). Down,
// it accepts connections and answers nothing: `requests` counts the requests that came (one per connection,
// since none is answered; Node's fetch also opens connections it sends nothing on). Up, it passes each
// connection through to `upstreamPort` (the scripted server's). Going down closes the connections it passed
// through, so no kept-alive connection carries a request past it. Only Node built-ins.
import net from "node:net";

export async function flakyHost(upstreamPort) {
  const sockets = new Set();
  const host = { down: true, requests: 0 };
  const listener = net.createServer((socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
    socket.on("error", () => {});
    if (host.down) {
      socket.once("data", () => host.requests++);
      return;
    }
    const upstream = net.connect(upstreamPort, "127.0.0.1");
    upstream.on("error", () => socket.destroy());
    upstream.on("close", () => socket.destroy());
    socket.on("close", () => upstream.destroy());
    socket.pipe(upstream).pipe(socket);
  });
  await new Promise((resolve) => listener.listen(0, "127.0.0.1", resolve));
  host.url = `http://127.0.0.1:${listener.address().port}`;
  host.setDown = (down) => {
    host.down = down;
    if (down) for (const socket of sockets) socket.destroy();
  };
  host.close = () =>
    new Promise((resolve) => {
      for (const socket of sockets) socket.destroy();
      listener.close(resolve);
    });
  return host;
}
