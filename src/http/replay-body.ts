// The engine reads a form post from the request stream itself (oidc-provider lib/shared/selective_body.js);
// finding it already read, it falls back on `req.body` and prints a warning on the console, outside the
// log. The input guard (src/edge/input-guard.ts) has read and checked the body before: the request is made
// to read again as a stream of exactly those bytes, which the engine then parses with its own parser.
import type { IncomingMessage } from 'node:http';
import { Readable } from 'node:stream';

export function replayBody(req: IncomingMessage, body: Buffer): void {
  // The engine compares what it reads with Content-Length: a host parser's body, brought back to a form
  // (host-parsed-body.ts), may differ in length from what the client sent.
  if (req.headers['content-length'] !== undefined) req.headers['content-length'] = String(body.length);
  Object.defineProperties(req, {
    readable: { value: true, configurable: true },
    iterator: {
      value: (options?: { destroyOnReturn?: boolean }) => Readable.from(body.length ? [body] : []).iterator(options),
      configurable: true,
    },
  });
}
