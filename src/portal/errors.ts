// Errors of the portal routes become portal pages. Another owner's application is a 404 exactly like
// an id that does not exist, so that ids cannot be probed; a failed CSRF check is a 403.
import type Koa from 'koa';
import { InteractionError } from '../../interactions/errors.ts';
import type { PortalKey } from './i18n.ts';
import { renderPortal } from './render.ts';
import { pageOf } from './request.ts';

export type PortalErrorKind = 'notFound' | 'forbidden' | 'generic';

export class PortalError extends Error {
  constructor(
    readonly status: number,
    readonly kind: PortalErrorKind,
  ) {
    super(`portal: ${kind}`);
    this.name = 'PortalError';
  }
}

export const notFound = (): PortalError => new PortalError(404, 'notFound');
export const forbidden = (): PortalError => new PortalError(403, 'forbidden');

const COPY: Readonly<Record<PortalErrorKind, { title: PortalKey; message: PortalKey }>> = {
  notFound: { title: 'error.notFound.title', message: 'error.notFound.message' },
  forbidden: { title: 'error.forbidden.title', message: 'error.forbidden.message' },
  generic: { title: 'error.generic.title', message: 'error.generic.message' },
};

export function portalErrors(): Koa.Middleware {
  return async function portalErrorPages(ctx, next) {
    try {
      await next();
    } catch (error) {
      const { status, kind } = describe(error);
      // Method and path only: never the form body or the query (callback codes).
      if (status >= 500) console.error('portal route failed', { method: ctx.method, path: ctx.path, error });
      if (ctx.headerSent || !ctx.writable) return;
      await renderPortal(ctx, pageOf(ctx), 'error', { title: COPY[kind].title, message: COPY[kind].message }, status);
    }
  };
}

function describe(error: unknown): { status: number; kind: PortalErrorKind } {
  if (error instanceof PortalError) return error;
  // The form body reader's refusals: wrong content type, too large, aborted.
  if (error instanceof InteractionError) return { status: error.status, kind: 'generic' };
  return { status: 500, kind: 'generic' };
}
