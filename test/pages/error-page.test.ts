import type { ErrorOut, KoaContextWithOIDC } from 'oidc-provider';
import { errors } from 'oidc-provider';
import { describe, expect, it } from 'vitest';
import { makeRenderError } from '../../src/provider/render-error.ts';
import { reasonForOAuthError } from '../../src/pages/error-page.ts';
import { fakeContext } from './fake-context.ts';

const config = { production: false, languages: { default: 'fr' as const, supported: ['fr', 'en'] as ('fr' | 'en')[] } };
const renderError = makeRenderError(config);

function engineContext(status: number, request: Parameters<typeof fakeContext>[0] & { uiLocales?: string } = {}) {
  const ctx = fakeContext(request);
  ctx.status = status;
  return Object.assign(ctx, { oidc: { params: request.uiLocales ? { ui_locales: request.uiLocales } : {} } });
}
const asEngine = (ctx: ReturnType<typeof engineContext>) => ctx as unknown as KoaContextWithOIDC;

describe('renderError', () => {
  it('never shows the stack or the internal description', async () => {
    const error = new errors.InvalidRequest('missing required parameter: code_challenge');
    const ctx = engineContext(400);
    const out: ErrorOut = { error: 'invalid_request', error_description: error.error_description };
    await renderError(asEngine(ctx), out, error);
    const html = String(ctx.body);
    expect(error.stack).toBeTruthy();
    expect(html).not.toContain('    at ');
    expect(html).not.toContain(error.stack!.split('\n')[1].trim());
    expect(html).not.toContain('code_challenge');
    expect(html).toContain('Demande invalide');
    expect(html).toContain('invalid_request');
  });

  it('keeps the status the engine set and the security headers', async () => {
    const ctx = engineContext(400);
    await renderError(asEngine(ctx), { error: 'invalid_client' }, new errors.InvalidClient('client is invalid'));
    expect(ctx.status).toBe(400);
    expect(ctx.type).toBe('html');
    expect(ctx.headers['Content-Security-Policy']).toContain("frame-ancestors 'none'");
  });

  it('names an unregistered application in the language of ui_locales', async () => {
    const ctx = engineContext(400, { uiLocales: 'en', acceptLanguage: 'fr' });
    await renderError(asEngine(ctx), { error: 'invalid_client' }, new errors.InvalidClient('client is invalid'));
    expect(ctx.body).toContain('<html lang="en">');
    expect(ctx.body).toContain('This application is not registered');
  });

  it('explains a return address that is not registered, in French by default', async () => {
    const ctx = engineContext(400);
    await renderError(asEngine(ctx), { error: 'invalid_redirect_uri' }, new errors.InvalidRedirectUri());
    expect(ctx.body).toContain('<html lang="fr">');
    expect(ctx.body).toContain('L’adresse de retour de cette application n’est pas enregistrée');
  });

  it('shows a server error without its message', async () => {
    const ctx = engineContext(500);
    const error = new Error('connection refused to postgres://user:secret@db');
    await renderError(asEngine(ctx), { error: 'server_error', error_description: 'oops! something went wrong' }, error);
    expect(ctx.status).toBe(500);
    expect(ctx.body).not.toContain('postgres');
    expect(ctx.body).not.toContain('oops');
    expect(ctx.body).toContain('Service momentanément indisponible');
  });
});

describe('reasonForOAuthError', () => {
  it('maps an expired interaction to its own message', () => {
    expect(reasonForOAuthError('invalid_request', new errors.SessionNotFound('interaction session not found'))).toBe('sessionExpired');
  });

  it('maps known codes and falls back to a generic message', () => {
    expect(reasonForOAuthError('invalid_client')).toBe('unknownClient');
    expect(reasonForOAuthError('invalid_redirect_uri')).toBe('redirectUri');
    expect(reasonForOAuthError('invalid_request')).toBe('invalidRequest');
    expect(reasonForOAuthError('unsupported_response_type')).toBe('generic');
    expect(reasonForOAuthError('constructor')).toBe('generic');
    expect(reasonForOAuthError(undefined)).toBe('generic');
  });
});
