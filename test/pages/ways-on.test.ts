// No error page is a dead end: every reason the service may show renders at least one way on, each a link
// under the service's own address (or its https one), and the ways that depend on the request (a retry,
// the sign-in again, back to the application) appear only where they can work.
import type Koa from 'koa';
import { errors } from 'oidc-provider';
import { describe, expect, it } from 'vitest';
import { translator } from '../../src/i18n/index.ts';
import { ERROR_REASONS, renderErrorPage, renderUnavailablePage, type ErrorPageContext } from '../../src/pages/error-page.ts';
import { pageErrors, PageError } from '../../src/pages/page-errors.ts';
import { waysOn } from '../../src/pages/ways-on.ts';
import { fakeContext } from './fake-context.ts';

const config = { languages: { default: 'fr' as const, supported: ['fr', 'en'] as ('fr' | 'en')[] } };
const fr = translator('fr');

type Request = { method?: string; path?: string; url?: string; host?: string; mountPath?: string };
/** A context the error page renders into, as the service's routes and the engine's hooks hand it over. */
const pageContext = (request: Request = {}) =>
  Object.assign(fakeContext(), request) as unknown as ErrorPageContext & { body: unknown; status: number };

/** The ways on of a rendered error page: the links of its `ways` block, as [label, href]. */
function waysOf(html: string): [string, string][] {
  const block = /<div class="stack ways">([\s\S]*?)<\/div>/.exec(html)?.[1] ?? '';
  return [...block.matchAll(/<a class="button (?:primary|secondary)" href="([^"]+)">([^<]+)<\/a>/g)].map((m) => [
    m[2],
    m[1].replace(/&amp;/g, '&'),
  ]);
}

describe('error pages', () => {
  it('offer at least one way on for every reason, in French and English, on a GET and after a form', async () => {
    expect(ERROR_REASONS.length).toBeGreaterThan(15);
    for (const reason of ERROR_REASONS) {
      for (const locale of ['fr', 'en'] as const) {
        for (const request of [{ method: 'GET', path: '/x', url: '/x' }, { method: 'POST', path: '/password/reset' }, {}]) {
          const ctx = pageContext(request);
          await renderErrorPage(ctx, { reason, status: 400, locale });
          const ways = waysOf(String(ctx.body));
          expect(ways.length, `${reason} ${locale} ${request.method}`).toBeGreaterThan(0);
          for (const [label, href] of ways) {
            expect(label.trim(), reason).not.toBe('');
            // Under the service (a path), or the service's own https address; never another site.
            expect(href, reason).toMatch(/^(\/[^/\\]|https:\/\/127\.0\.0\.1)/);
          }
        }
      }
    }
  });

  it('send an expired or used reset link to the form that sends a new one, carrying nothing of the old link', async () => {
    const ctx = pageContext({ method: 'GET', path: '/password/reset', url: '/password/reset?token=old-token' });
    await renderErrorPage(ctx, { reason: 'resetLinkInvalid', status: 400, locale: 'fr' });
    const ways = waysOf(String(ctx.body));
    expect(ways[0]).toEqual(['Recevoir un nouveau lien', '/password/forgot']);
    expect(ways).toContainEqual(['Mon compte', '/account']);
    expect(ways.map(([, href]) => href).join(' ')).not.toContain('old-token');
  });

  it('lead an unknown application and an unregistered return address to the account page only', async () => {
    for (const reason of ['unknownClient', 'redirectUri'] as const) {
      const ctx = pageContext({
        method: 'GET',
        path: '/oauth/authorize',
        url: '/oauth/authorize?client_id=x&redirect_uri=https%3A%2F%2Fevil.test',
      });
      await renderErrorPage(ctx, { reason, status: 400, locale: 'fr', code: 'invalid_client' });
      expect(waysOf(String(ctx.body))).toEqual([['Mon compte', '/account']]);
      expect(String(ctx.body)).not.toMatch(/(href|action)="https?:\/\/evil/);
    }
  });

  it('lead a sign-in required by prompt=none to signing in', async () => {
    const ctx = pageContext({ method: 'GET', path: '/oauth/authorize', url: '/oauth/authorize?prompt=none' });
    await renderErrorPage(ctx, { reason: 'signInRequired', status: 400, locale: 'en', code: 'login_required' });
    expect(waysOf(String(ctx.body))).toEqual([['Sign in', '/account']]);
  });

  it('offer a retry of the same GET on the outage page, and a new start of the sign-in after a form', async () => {
    const get = pageContext({ method: 'GET', path: '/interaction/abc', url: '/interaction/abc' });
    await renderUnavailablePage(get, 'fr');
    expect(get.status).toBe(503);
    expect(waysOf(String(get.body))[0]).toEqual(['Réessayer', '/interaction/abc']);

    const post = pageContext({ method: 'POST', path: '/interaction/abc/login', url: '/interaction/abc/login' });
    await renderUnavailablePage(post, 'fr');
    expect(waysOf(String(post.body))).toEqual([
      ['Recommencer la connexion', '/interaction/abc'],
      ['Mon compte', '/account'],
    ]);
  });

  it('offer the way back to the application through the interaction’s own cancel route, never a redirect URI', async () => {
    const ctx = pageContext({ method: 'POST', path: '/interaction/abc/consent' });
    await renderErrorPage(ctx, { reason: 'formExpired', status: 403, locale: 'fr' });
    expect(waysOf(String(ctx.body))).toEqual([
      ['Recommencer la connexion', '/interaction/abc'],
      ['Revenir à l’application', '/interaction/abc/abort'],
      ['Mon compte', '/account'],
    ]);
  });

  it('keep every way under the path the service is mounted at', () => {
    const ways = waysOn(
      ['retry', 'restart', 'application', 'account'],
      { method: 'GET', path: '/interaction/u1', url: '/interaction/u1', mountPath: '/auth' },
      fr,
    );
    expect(ways.map((w) => w.href)).toEqual(['/auth/interaction/u1', '/auth/interaction/u1/abort', '/auth/account']);
  });

  it('offer the https address of a page asked for over plain http', () => {
    const ways = waysOn(['https'], { method: 'GET', path: '/account', url: '/account?x=1', host: 'login.example.org' }, fr);
    expect(ways).toEqual([{ label: 'Ouvrir en HTTPS', href: 'https://login.example.org/account?x=1' }]);
    // A form cannot be sent again by a link: the account page instead.
    expect(waysOn(['https'], { method: 'POST', path: '/account/login', host: 'login.example.org' }, fr)).toEqual([
      { label: 'Mon compte', href: '/account' },
    ]);
  });

  it('show a failed page route (expired interaction, stale form) with its way on', async () => {
    const ctx = Object.assign(fakeContext({ acceptLanguage: 'fr' }), {
      method: 'POST',
      path: '/interaction/u2/login',
      url: '/interaction/u2/login',
      headerSent: false,
      writable: true,
      state: {},
    });
    const run = (error: unknown) =>
      pageErrors(config, { face: 'interaction' })(ctx as unknown as Koa.Context, async () => {
        throw error;
      });
    await run(new errors.SessionNotFound('interaction session not found'));
    expect(String(ctx.body)).toContain('Page expirée');
    expect(waysOf(String(ctx.body))).toEqual([['Mon compte', '/account']]);
    await run(new PageError(403, 'formExpired'));
    expect(waysOf(String(ctx.body))[0]).toEqual(['Recommencer la connexion', '/interaction/u2']);
  });
});
