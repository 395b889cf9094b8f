// The first middleware of every request: gives it an id, echoed in the X-Request-Id response header and
// written on every log line of the request (see src/log/request-context.ts), and logs with its stack any
// error that no face handled. A proxy's or a caller's X-Request-Id is kept when it looks like an id, so
// one id follows a request through every tier; anything else (too long, spaces, control characters that
// could forge log lines) is replaced.
import { randomUUID } from 'node:crypto';
import type Koa from 'koa';
import type { Logger } from '../log/logger.ts';
import { withRequestContext } from '../log/request-context.ts';
import { unexpectedError } from '../log/security-log.ts';

const SANE_ID = /^[A-Za-z0-9._:+=/-]{1,128}$/;

export const REQUEST_ID_HEADER = 'X-Request-Id';

/** The caller's request id when it is a sane value, else a new one. */
export function requestIdOf(header: string | undefined): string {
  return header && SANE_ID.test(header) ? header : randomUUID();
}

export function requestIds(logger: Logger): Koa.Middleware {
  return function requestId(ctx, next) {
    const id = requestIdOf(ctx.get(REQUEST_ID_HEADER) || undefined);
    ctx.set(REQUEST_ID_HEADER, id);
    return withRequestContext({ requestId: id, ip: ctx.ip, logger }, () =>
      next().catch((error: unknown) => {
        // The faces and the engine answer their own errors: what reaches here escaped them all. Koa
        // answers it with a bare 500 (the app is silent, so this is its only log line).
        const status = (error as { status?: unknown }).status;
        if (typeof status !== 'number' || status >= 500) unexpectedError(error, { endpoint: ctx.path });
        throw error;
      }),
    );
  };
}
