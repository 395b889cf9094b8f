import type Koa from 'koa';
import { describe, expect, it } from 'vitest';
import { SECURITY_HEADERS } from '../../src/pages/security-headers.ts';
import { localeFor, pageHeaders, renderPage } from '../../src/pages/render.ts';
import { fakeContext } from './fake-context.ts';

const asKoa = (ctx: ReturnType<typeof fakeContext>) => ctx as unknown as Koa.Context;
const languages = { languages: { default: 'fr' as const, supported: ['fr', 'en'] as ('fr' | 'en')[] } };

describe('renderPage', () => {
  it('sets every security header, the status and the HTML type', async () => {
    const ctx = fakeContext();
    await renderPage(asKoa(ctx), 'logged-out', { clientName: null }, { status: 200, locale: 'fr' });
    for (const [name, value] of Object.entries(SECURITY_HEADERS)) expect(ctx.headers[name]).toBe(value);
    expect(ctx.status).toBe(200);
    expect(ctx.type).toBe('html');
  });

  it('forbids scripts, framing and foreign styles', () => {
    const csp = SECURITY_HEADERS['Content-Security-Policy'];
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("style-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("base-uri 'none'");
    expect(csp).not.toContain('script-src');
    expect(csp).not.toContain('unsafe-inline');
    expect(SECURITY_HEADERS['X-Frame-Options']).toBe('DENY');
    expect(SECURITY_HEADERS['X-Content-Type-Options']).toBe('nosniff');
    expect(SECURITY_HEADERS['Referrer-Policy']).toBe('no-referrer');
    expect(SECURITY_HEADERS['Cache-Control']).toBe('no-store');
  });

  it('writes <html lang> in the chosen language', async () => {
    const fr = fakeContext();
    await renderPage(asKoa(fr), 'logged-out', { clientName: null }, { locale: 'fr' });
    expect(fr.body).toContain('<html lang="fr">');
    expect(fr.body).toContain('Déconnexion réussie');

    const en = fakeContext();
    await renderPage(asKoa(en), 'logged-out', { clientName: null }, { locale: 'en' });
    expect(en.body).toContain('<html lang="en">');
    expect(en.body).toContain('Signed out');
  });

  it('negotiates the language from the request when none is given', async () => {
    const ctx = fakeContext({ acceptLanguage: 'en-US,en;q=0.9,fr;q=0.1' });
    await renderPage(asKoa(ctx), 'logged-out', { clientName: null });
    expect(ctx.body).toContain('<html lang="en">');
  });

  it('escapes what it is given and contains no script', async () => {
    const ctx = fakeContext();
    await renderPage(asKoa(ctx), 'logged-out', { clientName: '<script>alert(1)</script>' }, { locale: 'en' });
    expect(ctx.body).toContain('&lt;script&gt;');
    expect(ctx.body).not.toMatch(/<script/i);
  });

  it('links the stylesheet with a content hash, under the mount path', async () => {
    const ctx = { ...fakeContext(), mountPath: '/auth' };
    await renderPage(asKoa(ctx), 'logged-out', { clientName: null }, { locale: 'fr' });
    expect(ctx.body).toMatch(/<link rel="stylesheet" href="\/auth\/static\/app\.css\?v=[\w-]+">/);
  });

  it('renders the logout prompt around the engine form', async () => {
    const ctx = fakeContext();
    const form =
      '<form id="op.logoutForm" method="post" action="/oauth/logout/confirm"><input type="hidden" name="xsrf" value="abc"/></form>';
    await renderPage(asKoa(ctx), 'logout', { form }, { locale: 'fr' });
    expect(ctx.body).toContain(form);
    expect(ctx.body).toMatch(/<button[^>]*form="op\.logoutForm"[^>]*name="logout"[^>]*value="yes"/);
  });
});

describe('pageHeaders', () => {
  it('applies the same headers before the next middleware', async () => {
    const ctx = fakeContext();
    let seen: Record<string, string> = {};
    await pageHeaders()(asKoa(ctx), async () => {
      seen = { ...ctx.headers };
    });
    expect(seen).toEqual(SECURITY_HEADERS);
  });
});

describe('localeFor', () => {
  it('reads ui_locales, then the lang cookie, then Accept-Language, then the config default', () => {
    expect(localeFor(asKoa(fakeContext({ cookie: 'fr', acceptLanguage: 'fr' })), languages, 'en')).toBe('en');
    expect(localeFor(asKoa(fakeContext({ cookie: 'en', acceptLanguage: 'fr' })), languages)).toBe('en');
    expect(localeFor(asKoa(fakeContext({ acceptLanguage: 'en' })), languages)).toBe('en');
    expect(localeFor(asKoa(fakeContext()), languages)).toBe('fr');
  });
});
