// A urlencoded body reader for our own form posts only: the engine parses its own bodies, and a
// global body parser in front of it would consume them first. When the service is mounted in a host
// app that parses bodies itself, the stream is already spent: the host's parsed body is read instead,
// under the same rules (src/http/host-parsed-body.ts).
import type Koa from 'koa';
import { hostParsedBody } from '../http/host-parsed-body.ts';
import { decodeForm, InputError } from '../http/input-rules.ts';
import { PageError } from './page-errors.ts';

export const FORM_BODY_LIMIT = 16 * 1024;
/** Longest value of one field: a textarea of redirect URIs fits, a pasted megabyte does not. */
export const FORM_FIELD_LIMIT = 8 * 1024;

export async function readFormBody(ctx: Koa.Context, limit = FORM_BODY_LIMIT): Promise<URLSearchParams> {
  if (!ctx.is('application/x-www-form-urlencoded')) throw new PageError(415, 'generic');
  const declared = Number(ctx.get('Content-Length') || 0);
  if (declared > limit) throw tooLarge(ctx);
  // The rules of every request's input (src/http/input-rules.ts), with the line breaks a textarea sends.
  try {
    const parsed = hostParsedBody(ctx);
    if (parsed && parsed.length > limit) throw tooLarge(ctx);
    const raw = parsed ?? (await readAtMost(ctx, limit));
    const fields = decodeForm(raw, { lineBreaks: true });
    if (fields.some(([, value]) => value.length > FORM_FIELD_LIMIT)) throw new InputError('tooLong');
    return new URLSearchParams(fields);
  } catch (error) {
    if (error instanceof InputError) throw new PageError(400, 'badInput');
    throw error;
  }
}

function readAtMost(ctx: Koa.Context, limit: number): Promise<Buffer> {
  const req = ctx.req;
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const cleanup = () => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
      req.off('aborted', onAborted);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        cleanup();
        // Stop reading rather than buffer an oversized (possibly endless) chunked body.
        req.pause();
        reject(tooLarge(ctx));
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => {
      cleanup();
      resolve(Buffer.concat(chunks));
    };
    const onError = (error: Error) => {
      cleanup();
      reject(error);
    };
    const onAborted = () => {
      cleanup();
      reject(new PageError(400, 'generic'));
    };
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
    req.on('aborted', onAborted);
  });
}

function tooLarge(ctx: Koa.Context): PageError {
  // The rest of the body is never read, so the connection cannot be reused for another request.
  ctx.set('Connection', 'close');
  return new PageError(413, 'generic');
}
