// The connections of a Node HTTP server, for a stop that resets none a client is using. `server.close()`
// alone destroys at once every connection with no request in progress, and that includes one accepted a
// moment ago whose request is still on its way, and a kept-alive one whose client has just sent its next
// request: both clients then get ECONNRESET, for a request the server had already accepted. Here the
// listener stops accepting, each request still in progress finishes and says `Connection: close`, and a
// connection is closed only once nothing has been in progress on it for `quietMs`, a connection that
// never carried a request included (its client gets that long to send it).
import type { Server, ServerResponse } from 'node:http';
import { Server as NetServer, type Socket } from 'node:net';

interface Connection {
  /** Requests received and not yet answered (more than one when the client pipelines). */
  inProgress: number;
  /** When the last answer ended, or when the connection was accepted. */
  quietSince: number;
}

export interface TrackedConnections {
  /** To call for every request, from the server's request listener. */
  request(socket: Socket, res: ServerResponse): void;
  /** Every answer not begun yet will say `Connection: close`, so that no client reuses its connection. */
  closeAfterAnswers(): void;
  /**
   * Stops accepting connections and resolves once every connection is closed: each one once it has been
   * quiet for `quietMs`, and every one after `graceMs`, whatever is still in progress.
   */
  close(quietMs: number, graceMs: number): Promise<void>;
  /** From now on a quiet connection closes at once, without waiting for `quietMs` (a stop in a hurry). */
  hurry(): void;
}

// net.Server's own close, which the HTTP server overrides to also destroy its idle connections: read, not patched.
const { close: closeListener } = NetServer.prototype;

/** How often, while the server closes, connections are looked at for one that has become quiet. */
const SWEEP_MS = 20;

export function trackConnections(server: Server): TrackedConnections {
  const connections = new Map<Socket, Connection>();
  const answers = new Set<ServerResponse>();
  let closing = false;
  let hurried = false;
  server.on('connection', (socket: Socket) => {
    connections.set(socket, { inProgress: 0, quietSince: performance.now() });
    socket.once('close', () => connections.delete(socket));
  });

  const closeQuiet = (quietMs: number): void => {
    const now = performance.now();
    for (const [socket, connection] of connections) {
      if (connection.inProgress === 0 && (hurried || now - connection.quietSince >= quietMs)) socket.destroy();
    }
  };

  return {
    request(socket, res) {
      const connection = connections.get(socket);
      answers.add(res);
      if (connection) connection.inProgress += 1;
      res.once('close', () => {
        answers.delete(res);
        if (!connection) return;
        connection.inProgress -= 1;
        connection.quietSince = performance.now();
      });
    },

    closeAfterAnswers() {
      for (const res of answers) if (!res.headersSent) res.setHeader('Connection', 'close');
    },

    hurry() {
      hurried = true;
      if (closing) closeQuiet(0);
    },

    async close(quietMs, graceMs) {
      closing = true;
      // The plain TCP server's close: stop accepting, call back once the last connection has closed,
      // and leave the connections alone (the HTTP server's own close would destroy the idle ones now).
      const closed = new Promise<void>((resolve) => closeListener.call(server, () => resolve()));
      const sweep = setInterval(() => closeQuiet(quietMs), SWEEP_MS);
      const cut = setTimeout(() => server.closeAllConnections(), graceMs);
      closeQuiet(quietMs);
      try {
        await closed;
      } finally {
        clearInterval(sweep);
        clearTimeout(cut);
      }
    },
  };
}
