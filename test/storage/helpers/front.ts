// One origin in front of several instances: a tiny loopback HTTP proxy that sends each request to the
// instance a test-supplied function picks, and counts what each instance served.
import { once } from 'node:events';
import { createServer, request, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Front {
  url: string;
  /** Requests served per instance index, by "METHOD path". */
  served: Array<string[]>;
  close(): Promise<void>;
}

export async function steeringFront(port: number, targets: () => number[], pick: (req: IncomingMessage) => number): Promise<Front> {
  const served: Array<string[]> = [];
  const server: Server = createServer((req, res) => {
    const index = pick(req);
    (served[index] ??= []).push(`${req.method} ${new URL(req.url ?? '/', 'http://x').pathname}`);
    const upstream = request(
      { host: '127.0.0.1', port: targets()[index], method: req.method, path: req.url, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => {
      res.statusCode = 502;
      res.end();
    });
    req.pipe(upstream);
  });
  server.listen(port, '127.0.0.1');
  await once(server, 'listening');
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    served,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
