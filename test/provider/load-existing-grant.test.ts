// The loadExistingGrant hook on its own, with the engine's real Grant model (an engine built in memory,
// no server) and a consent store that remembers one consent: a returning user skips the consent
// screen, a grant of someone else is never used, a refused scope is asked again.
import Provider from 'oidc-provider';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Consent } from '../../src/consents/store.ts';
import { makeLoadExistingGrant, type GrantRequest } from '../../src/provider/load-existing-grant.ts';

const DAY = 24 * 3600;
const REFRESH_TTL = 30 * DAY;
// No adapter: the engine keeps its models in memory, which is all this hook needs.
const provider = new Provider('http://127.0.0.1:1', { ttl: { Grant: 60 * DAY }, features: { devInteractions: { enabled: false } } });

async function saveGrant(accountId: string, clientId: string, scope: string, rejected?: string): Promise<string> {
  const grant = new provider.Grant({ accountId, clientId });
  grant.addOIDCScope(scope);
  if (rejected) grant.rejectOIDCScope(rejected);
  return grant.save();
}

/** A consent store that remembers the consents given to it. */
function consents(...given: Array<Pick<Consent, 'accountId' | 'clientId' | 'grantId'>>) {
  return {
    async latest(accountId: string, clientId: string): Promise<Consent | undefined> {
      const found = given.findLast((c) => c.accountId === accountId && c.clientId === clientId);
      return found && { ...found, scopes: [], createdAt: new Date() };
    },
  };
}

/** Every application here is a web application, whose consent is remembered (spa: test/consent/remembered-consent.test.ts). */
const WEB_APPS = {
  get: async () => ({ appType: 'web' as const, firstParty: false, verifiedAt: null, redirectUris: ['https://app.example.org/cb'] }),
};

function request(accountId: string, clientId: string, scope: string, extra: { inSession?: string; fresh?: string } = {}): GrantRequest {
  return {
    oidc: {
      client: { clientId },
      session: { accountId, grantIdFor: (id: string) => (id === clientId ? extra.inSession : undefined) },
      result: extra.fresh ? { consent: { grantId: extra.fresh } } : undefined,
      params: { scope },
      provider,
    },
  };
}

let mine: string;
let someoneElses: string;
let withRefusal: string;
beforeAll(async () => {
  mine = await saveGrant('fatou', 'app-a', 'openid email profile');
  someoneElses = await saveGrant('karim', 'app-a', 'openid email profile');
  withRefusal = await saveGrant('fatou', 'app-b', 'openid email', 'profile');
});

describe('loadExistingGrant', () => {
  it('finds the remembered consent of a returning user, without a session that knows it', async () => {
    const load = makeLoadExistingGrant(consents({ accountId: 'fatou', clientId: 'app-a', grantId: mine }), REFRESH_TTL, WEB_APPS);
    const grant = await load(request('fatou', 'app-a', 'openid email'));
    expect(grant?.jti).toBe(mine);
    expect(grant?.getOIDCScope()).toBe('openid email profile');
  });

  it('prefers the grant the browser session holds for the application', async () => {
    const load = makeLoadExistingGrant(consents(), REFRESH_TTL, WEB_APPS);
    expect((await load(request('fatou', 'app-a', 'openid', { inSession: mine })))?.jti).toBe(mine);
  });

  it('never uses a grant given by another account or to another application', async () => {
    const load = makeLoadExistingGrant(consents({ accountId: 'fatou', clientId: 'app-a', grantId: someoneElses }), REFRESH_TTL, WEB_APPS);
    expect(await load(request('fatou', 'app-a', 'openid'))).toBeUndefined();
    expect(await load(request('fatou', 'app-c', 'openid', { inSession: mine }))).toBeUndefined();
  });

  it('asks again when a scope the user refused is requested, and not otherwise', async () => {
    const load = makeLoadExistingGrant(consents({ accountId: 'fatou', clientId: 'app-b', grantId: withRefusal }), REFRESH_TTL, WEB_APPS);
    expect(await load(request('fatou', 'app-b', 'openid email profile'))).toBeUndefined();
    expect((await load(request('fatou', 'app-b', 'openid email')))?.jti).toBe(withRefusal);
  });

  it('takes the consent just given as it is, refused scopes included', async () => {
    const load = makeLoadExistingGrant(consents(), REFRESH_TTL, WEB_APPS);
    expect((await load(request('fatou', 'app-b', 'openid email profile', { fresh: withRefusal })))?.jti).toBe(withRefusal);
  });

  it('finds nothing without a signed-in account or a known grant', async () => {
    const load = makeLoadExistingGrant(consents(), REFRESH_TTL, WEB_APPS);
    expect(await load(request('fatou', 'app-a', 'openid'))).toBeUndefined();
    const anonymous = request('fatou', 'app-a', 'openid', { inSession: mine });
    anonymous.oidc.session = undefined;
    expect(await load(anonymous)).toBeUndefined();
  });

  it('extends the remembered consent of a returning user whose grant is running out', async () => {
    const grant = new provider.Grant({ accountId: 'fatou', clientId: 'app-d' });
    grant.addOIDCScope('openid');
    grant.exp = Math.floor(Date.now() / 1000) + 2 * DAY;
    const id = await grant.save();
    const load = makeLoadExistingGrant(consents({ accountId: 'fatou', clientId: 'app-d', grantId: id }), REFRESH_TTL, WEB_APPS);
    await load(request('fatou', 'app-d', 'openid'));
    const stored = await provider.Grant.find(id);
    expect(stored?.remainingTTL).toBeGreaterThan(REFRESH_TTL);
  });
});
