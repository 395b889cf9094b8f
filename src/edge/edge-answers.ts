// How the HTTP edge refuses a request before any route sees it: RFC 6749 error JSON for a program, the
// localized error page for a browser. Nothing of the request is echoed back.
import type Koa from 'koa';
import type { SignInConfig } from '../config/schema.ts';
import { renderErrorPage, type ErrorReason } from '../pages/error-page.ts';
import { localeFor } from '../pages/language.ts';
import { pageViews } from '../pages/views.ts';

export interface EdgeRefusal {
  status: number;
  /** The RFC 6749 error code; shown in small print on a page. */
  error: string;
  /** For a developer reading the JSON: what to fix, never a value from the request. */
  description: string;
  /** What the page tells the user. */
  reason: ErrorReason;
}

// The edge runs before the pages' middleware has installed the renderer.
const views = pageViews();

/** The refusal as JSON (`api`) or as a page (`browser`); nothing is read from the request but its language. */
export async function refuse(
  ctx: Koa.Context,
  config: Pick<SignInConfig, 'languages'>,
  kind: 'api' | 'browser',
  refusal: EdgeRefusal,
): Promise<void> {
  ctx.remove('Location');
  if (kind === 'api') {
    ctx.status = refusal.status;
    ctx.set('Cache-Control', 'no-store');
    ctx.body = { error: refusal.error, error_description: refusal.description };
    return;
  }
  // ui_locales is not read here: it is part of the request being refused.
  const locale = localeFor(ctx, config);
  await views(ctx, () => renderErrorPage(ctx, { reason: refusal.reason, status: refusal.status, locale, code: refusal.error }));
}
