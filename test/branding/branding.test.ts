// The deployment's branding (config `branding`): its name, its logo (a local file the service serves
// itself) and its links, on every page (the engine's error pages included) and in every e-mail; and
// `GET /`, which leads to the account page.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/config/config-error.ts';
import { parseConfig } from '../../src/config/load.ts';
import { loadBrand } from '../../src/pages/branding.ts';
import { Browser, type Page } from '../support/browser.ts';
import { startTestService, type TestService } from '../support/service.ts';
import { startSmtpSink, type SmtpSink } from '../email/smtp-sink.ts';

const dir = mkdtempSync(join(tmpdir(), 'signin-branding-'));
const LOGO = join(dir, 'logo.svg');
writeFileSync(LOGO, '<svg xmlns="http://www.w3.org/2000/svg" width="24" height="24"><rect width="24" height="24" fill="#0b5cad"/></svg>');

let svc: TestService;
let smtp: SmtpSink;
beforeAll(async () => {
  smtp = await startSmtpSink();
  svc = await startTestService({
    mail: smtp.mailConfig(),
    branding: {
      serviceName: 'Mairie de Bouaké · Connexion',
      logo: LOGO,
      links: [
        { label: { fr: 'Mentions légales', en: 'Legal notice' }, url: 'https://bouake.example.org/mentions-legales' },
        {
          label: { fr: 'Accessibilité : partiellement conforme', en: 'Accessibility: partially compliant' },
          url: 'https://bouake.example.org/accessibilite',
        },
        { label: 'Contact', url: 'mailto:contact@bouake.example.org' },
      ],
    },
  });
});
afterAll(async () => {
  await svc?.stop();
  await smtp?.stop();
  rmSync(dir, { recursive: true, force: true });
});

const csrfOf = (page: Page) => /name="csrf" value="([^"]+)"/.exec(page.html)![1];

describe('branding', () => {
  it('leads GET / to the account page', async () => {
    const res = await fetch(`${svc.url}/`, { redirect: 'manual' });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/account');
  });

  it('names the service, shows its logo and its links on every page, in the page’s language', async () => {
    const browser = new Browser(svc.url);
    const pages = [
      (await browser.open('/account')) as Page,
      (await browser.open('/password/forgot')) as Page,
      (await browser.open('/nowhere')) as Page,
      // An error page of the engine itself.
      (await browser.open('/oauth/authorize?client_id=unknown&response_type=code')) as Page,
    ];
    for (const page of pages) {
      expect(page.html, page.url).toMatch(/<title>[^<]+ · Mairie de Bouaké · Connexion<\/title>/);
      expect(page.html, page.url).toMatch(
        /<p class="service"><img class="brand-logo" src="\/static\/logo\?v=[\w-]{12}" alt="" height="24">Mairie de Bouaké · Connexion<\/p>/,
      );
      expect(page.html, page.url).toContain('<a href="https://bouake.example.org/mentions-legales">Mentions légales</a>');
      expect(page.html, page.url).toContain('<a href="mailto:contact@bouake.example.org">Contact</a>');
    }
    const english = (await new Browser(svc.url, { 'Accept-Language': 'en' }).open('/account')) as Page;
    expect(english.html).toContain('>Legal notice</a>');
    expect(english.html).toContain('>Accessibility: partially compliant</a>');
  });

  it('serves the logo itself, cached for good under a URL that changes with it, and inert as a document', async () => {
    const page = (await new Browser(svc.url).open('/account')) as Page;
    const href = /src="(\/static\/logo\?v=[\w-]+)"/.exec(page.html)![1];
    const res = await fetch(`${svc.url}${href}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/svg+xml');
    expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(res.headers.get('content-security-policy')).toContain('sandbox');
    expect(await res.text()).toContain('<svg');
    // (Not with fetch: a conditional fetch also sends Cache-Control: no-cache, which a server must honour.)
    const again = await request(svc.url).get(href).set('If-None-Match', res.headers.get('etag')!);
    expect(again.status).toBe(304);
  });

  it('signs every e-mail with the name, and ends it with the logo and the links', async () => {
    const user = await svc.createUser();
    const browser = new Browser(svc.url);
    const forgot = (await browser.open('/password/forgot')) as Page;
    await browser.submit(forgot, /\/password\/forgot$/, { csrf: csrfOf(forgot), email: user.email, return: '/account' });
    const mail = await smtp.next(user.email);
    expect(mail.text).toContain('— Mairie de Bouaké · Connexion');
    expect(mail.text).toContain('Mentions légales: https://bouake.example.org/mentions-legales');
    expect(mail.html).toMatch(new RegExp(`<img src="${svc.url}/static/logo\\?v=[\\w-]{12}" alt="Mairie de Bouaké · Connexion"`));
    expect(mail.html).toContain('href="https://bouake.example.org/accessibilite"');
    // The action link is still the first link of the text.
    expect(mail.link).toMatch(/\/password\/reset\?token=/);
  });

  it('without branding, uses the catalogs’ name and shows no logo and no links', async () => {
    const plain = await startTestService();
    try {
      const page = (await new Browser(plain.url).open('/account')) as Page;
      expect(page.html).toContain('<p class="service">Service de connexion</p>');
      expect(page.html).not.toContain('brand-links');
      expect((await fetch(`${plain.url}/static/logo`)).status).toBe(404);
    } finally {
      await plain.stop();
    }
  });

  it('refuses a logo that is missing, too big or not an image, and links that are not web or mail addresses', async () => {
    const big = join(dir, 'big.png');
    writeFileSync(big, Buffer.alloc(300 * 1024));
    for (const logo of [join(dir, 'missing.png'), big]) {
      await expect(loadBrand({ logo, links: [] })).rejects.toThrow(ConfigError);
      await expect(loadBrand({ logo, links: [] })).rejects.toThrow(/branding\.logo/);
    }
    const base = { issuer: 'https://id.example.org', secrets: { cookieKeys: ['k'.repeat(40)], pairwiseSalt: 's'.repeat(40) } };
    expect(() => parseConfig({ ...base, branding: { logo: 'logo.exe' } })).toThrow(/branding\.logo/);
    expect(() => parseConfig({ ...base, branding: { links: [{ label: 'x', url: 'javascript:alert(1)' }] } })).toThrow(/branding\.links/);
    expect(() => parseConfig({ ...base, branding: { links: [{ label: { fr: 'Mentions' }, url: 'https://example.org' }] } })).toThrow(
      /branding\.links/,
    );
  });
});
