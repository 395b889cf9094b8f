// A loopback TCP relay the test controls, put between the service and Postgres or Redis: cutting it
// is an outage of that server as the service sees it, without touching the shared server itself.
import { once } from 'node:events';
import { connect, createServer, type Server, type Socket } from 'node:net';

export interface Relay {
  port: number;
  /** Drops every connection and stops listening: connections are refused, as with a stopped server. */
  cut(): Promise<void>;
  /**
   * Keeps every connection open but forwards nothing, and holds new ones the same way: a server that
   * stopped answering (or a network dropping packets), where only the client's timeouts help.
   */
  stall(): void;
  /** Ends a cut or a stall: drops what it held, listens on the same port again and forwards as before. */
  restore(): Promise<void>;
  close(): Promise<void>;
}

export async function tcpRelay(target: URL, defaultPort: number): Promise<Relay> {
  const sockets = new Set<Socket>();
  let server: Server | undefined;
  let port = 0;
  let stalled = false;

  const listen = async () => {
    const s = createServer((client) => {
      if (stalled) {
        sockets.add(client);
        client.on('error', () => {});
        client.on('close', () => sockets.delete(client));
        return;
      }
      const upstream = connect(Number(target.port || defaultPort), target.hostname);
      for (const sock of [client, upstream]) {
        sockets.add(sock);
        sock.on('error', () => {});
        sock.on('close', () => {
          sockets.delete(sock);
          client.destroy();
          upstream.destroy();
        });
      }
      client.pipe(upstream).pipe(client);
    });
    s.listen(port, '127.0.0.1');
    await once(s, 'listening');
    const address = s.address();
    if (address === null || typeof address === 'string') throw new Error('relay has no TCP address');
    port = address.port;
    server = s;
  };

  const cut = async () => {
    const s = server;
    server = undefined;
    for (const sock of sockets) sock.destroy();
    if (s) await new Promise<void>((resolve) => s.close(() => resolve()));
  };

  await listen();
  return {
    get port() {
      return port;
    },
    cut,
    stall() {
      stalled = true;
      for (const sock of sockets) {
        sock.unpipe();
        sock.pause();
      }
    },
    async restore() {
      if (stalled) {
        stalled = false;
        for (const sock of sockets) sock.destroy();
      }
      if (!server) await listen();
    },
    close: async () => {
      stalled = false;
      await cut();
    },
  };
}

/** A relay in front of the Postgres (or Redis) of `url`, and `url` rewritten to go through it. */
export async function relayFor(url: string, defaultPort: number): Promise<{ relay: Relay; url: string }> {
  const target = new URL(url);
  const relay = await tcpRelay(target, defaultPort);
  const through = new URL(url);
  through.hostname = '127.0.0.1';
  through.port = String(relay.port);
  return { relay, url: through.toString() };
}
