// Redirect URIs in the developer portal are registered in their canonical form: anything typed
// otherwise is refused under the field, naming the rule and the form to write; http on a loopback
// address is for single-page and mobile apps only, as the hint under the field says.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../support/service.ts';
import { VALID_APP, csrfOf, get, post, registerApp, signInToPortal, type Owner } from './support.ts';

/** The page's text as a person reads it: French spaces as plain ones, entities decoded. */
const readable = (html: string): string =>
  html
    .replace(/[\u00a0\u202f]/g, ' ')
    .replace(/&#39;/g, "'")
    .replace(/&#34;|&quot;/g, '"')
    .replace(/&amp;/g, '&');

const fieldErrors = (html: string): string[] =>
  [...html.matchAll(/<p class="field-error" id="redirectUris-error">([^<]*)<\/p>/g)].map((m) => readable(m[1]));

describe('portal: canonical redirect URIs', () => {
  let ts: TestService;
  let owner: Owner;
  let english: Owner;
  beforeAll(async () => {
    ts = await startTestService();
    owner = await signInToPortal(ts);
    english = await signInToPortal(ts, { 'Accept-Language': 'en' });
  });
  afterAll(() => ts.stop());

  const submit = (who: Owner, fields: Record<string, string | string[]>) =>
    post(who, '/apps', { ...VALID_APP, ...fields }, csrfOf(who.home.html));

  it('says under the field that http is for single-page and mobile apps in development, and what canonical means', async () => {
    const fr = readable((await get(owner, '/apps/new')).text);
    expect(fr).toMatch(
      /id="redirect_uris-hint">[^<]*forme canonique[^<]*http seulement sur une adresse locale[^<]*application web monopage ou mobile, pendant le développement/,
    );
    expect(fr).toMatch(/id="redirect_uris-hint">[^<]*un site web \(serveur\) utilise toujours https/);
    const en = readable((await get(english, '/apps/new')).text);
    expect(en).toMatch(/id="redirect_uris-hint">[^<]*canonical form[^<]*only for a single-page or mobile app, during development/);
  });

  it.each([
    [
      'https:rp.example/cb',
      'web',
      '« https:rp.example/cb » n’est pas écrite sous sa forme canonique',
      'Écrivez-la ainsi : https://rp.example/cb',
    ],
    ['https://RP.example/cb', 'web', 'n’est pas écrite sous sa forme canonique', 'Écrivez-la ainsi : https://rp.example/cb'],
    ['https://rp.example:443/cb', 'web', 'n’est pas écrite sous sa forme canonique', 'Écrivez-la ainsi : https://rp.example/cb'],
    ['HTTPS://RP.example:443/cb', 'spa', 'n’est pas écrite sous sa forme canonique', 'Écrivez-la ainsi : https://rp.example/cb'],
    ['https://rp.example/a/./cb', 'web', 'n’est pas écrite sous sa forme canonique', 'Écrivez-la ainsi : https://rp.example/a/cb'],
    [
      'https:/\\evil.test/cb',
      'web',
      '« https:/\\evil.test/cb » ne doit pas contenir de barre oblique inversée (\\)',
      'un navigateur la lit comme /',
    ],
    [
      'http://localhost/cb',
      'web',
      '« http://localhost/cb » doit utiliser https',
      'seulement pour une application web monopage ou mobile, pendant le développement',
    ],
  ])('refuses %s for a %s application, naming the rule', async (uri, appType, rule, detail) => {
    const before = (await ts.service.context.clients.list(owner.id)).length;
    const res = await submit(owner, { app_type: appType, redirect_uris: uri });
    expect(res.status).toBe(400);
    const [message] = fieldErrors(res.text);
    expect(message).toContain(rule);
    expect(message).toContain(detail);
    // What was typed stays in the form, to be corrected.
    expect(readable(res.text)).toContain(`>${uri}</textarea>`);
    expect(await ts.service.context.clients.list(owner.id)).toHaveLength(before);
  });

  it('writes the rule in English for an English-speaking owner', async () => {
    const res = await submit(english, { redirect_uris: 'https:rp.example/cb\nhttp://127.0.0.1:3000/cb' });
    expect(res.status).toBe(400);
    expect(fieldErrors(res.text)).toEqual([
      expect.stringMatching(/^“https:rp\.example\/cb” is not written in its canonical form: .*Write it as https:\/\/rp\.example\/cb$/),
      expect.stringMatching(
        /^“http:\/\/127\.0\.0\.1:3000\/cb” must use https: .*only for a single-page or mobile app, during development\.$/,
      ),
    ]);
  });

  it('accepts canonical URIs and stores them exactly as typed', async () => {
    const cases: Array<[string, string[]]> = [
      ['web', ['https://rp.example/cb', 'https://rp.example:8443/auth/callback?from=portal', 'https://rp.example/caf%C3%A9']],
      ['spa', ['https://spa.example.org/callback', 'http://localhost:5173/callback']],
      ['mobile', ['com.example.app:/callback', 'http://127.0.0.1/cb']],
    ];
    for (const [appType, uris] of cases) {
      const { clientId } = await registerApp(owner, { ...VALID_APP, app_type: appType, redirect_uris: uris.join('\r\n') });
      expect((await ts.service.context.clients.get(clientId))?.redirectUris, appType).toEqual(uris);
    }
  });

  it('refuses a non-canonical URI on edit and keeps the registered ones', async () => {
    const { clientId } = await registerApp(owner);
    const edit = await get(owner, `/apps/${clientId}/edit`);
    const res = await post(
      owner,
      `/apps/${clientId}`,
      { ...VALID_APP, redirect_uris: 'https://App.example.org/callback' },
      csrfOf(edit.text),
    );
    expect(res.status).toBe(400);
    expect(fieldErrors(res.text)[0]).toContain('Écrivez-la ainsi : https://app.example.org/callback');
    expect((await ts.service.context.clients.get(clientId))?.redirectUris).toEqual(VALID_APP.redirect_uris.split('\n'));
  });
});
