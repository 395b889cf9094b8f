// A form body that a host application's body parser has already read. Most Koa apps parse bodies before
// their routes (`@koa/bodyparser`, koa-body); once the service is mounted behind one, the request stream
// is spent, and a reader waiting for it would wait forever. The parsed body is taken instead, and
// brought back to form-encoded bytes, so that it goes through exactly the rules a body read from the
// stream goes through (src/http/input-rules.ts): the host's parser decides nothing about what we accept.
//
// Taken, in this order: the raw text the parser kept (`ctx.request.rawBody`, set by @koa/bodyparser and
// koa-bodyparser), else the parsed fields (`ctx.request.body`), which must then be a plain object of
// strings or lists of strings: anything else (nested objects from `a[b]=c`, numbers from a JSON body
// parsed as a form) is refused as unreadable.
import type Koa from 'koa';
import { InputError } from './input-rules.ts';

type Holder = { body?: unknown; rawBody?: unknown };

/**
 * The body already read by a host parser, as form-encoded bytes; undefined when nobody has read the
 * stream (the caller reads it). Throws InputError for a parsed body that is not a flat form, or for a
 * stream that was spent and left nothing to read.
 */
export function hostParsedBody(ctx: Pick<Koa.Context, 'req' | 'request'>): Buffer | undefined {
  const request = ctx.request as unknown as Holder;
  const req = ctx.req as typeof ctx.req & Holder;
  if (typeof request.rawBody === 'string') return Buffer.from(request.rawBody, 'utf8');
  const parsed = request.body !== undefined ? request.body : req.body;
  if (parsed !== undefined) return Buffer.from(formOf(parsed), 'utf8');
  // Read by someone who kept nothing: better a refusal than a request that never ends.
  if (req.readableEnded || req.readableDidRead) throw new InputError('encoding', 'body');
  return undefined;
}

function formOf(parsed: unknown): string {
  if (typeof parsed === 'string') return parsed;
  if (Buffer.isBuffer(parsed)) return parsed.toString('utf8');
  if (!isPlainObject(parsed)) throw new InputError('encoding', 'body');
  const form = new URLSearchParams();
  for (const [name, value] of Object.entries(parsed)) {
    const values: unknown[] = Array.isArray(value) ? value : [value];
    for (const item of values) {
      if (typeof item !== 'string') throw new InputError('encoding', name);
      form.append(name, item);
    }
  }
  return form.toString();
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object') return false;
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}
