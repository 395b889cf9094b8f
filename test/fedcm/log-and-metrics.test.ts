// What an operator sees of FedCM: a security-log line for each refusal (with its reason), continuation,
// code given and disconnect, never the code itself, and the `signin_fedcm_total` counter on /metrics.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sample } from '../metrics/scrape.ts';
import { LogCapture } from '../security-log/capture.ts';
import { giveConsent, signedInCookie } from './fedcm-cookie.ts';
import { pkcePair, startFedcmWorld, type FedcmWorld } from './fedcm-service.ts';
import { idpRequest } from './idp-request.ts';

const token = 'm'.repeat(40);
const log = new LogCapture();
let world: FedcmWorld;
let cookie: string;
beforeAll(async () => {
  world = await startFedcmWorld(
    { log: { level: 'info', pretty: false }, metrics: { bearerToken: token } },
    { logDestination: log.destination },
  );
  cookie = await signedInCookie(world);
}, 60_000);
afterAll(() => world?.stop());

const assertion = (origin: string, challenge = pkcePair().challenge) =>
  idpRequest(world, '/fedcm/assertion', {
    form: {
      client_id: world.client.clientId,
      account_id: world.user.id,
      params: JSON.stringify({ scope: 'openid email', code_challenge: challenge, code_challenge_method: 'S256' }),
    },
    headers: { Origin: origin, 'Sec-Fetch-Dest': 'webidentity', Cookie: cookie },
  });

describe('FedCM in the security log and the metrics', () => {
  it('logs refusals, continuations, codes and disconnects, and counts them', async () => {
    await assertion('https://evil.test');
    expect(log.one('fedcm.refused', { reason: 'unknown_origin', client_id: world.client.clientId }).outcome).toBe('blocked');
    await assertion(world.rpOrigin);
    log.one('fedcm.continued', { client_id: world.client.clientId, account_id: world.user.id });
    await giveConsent(world, world.client.clientId);
    const given = await assertion(world.rpOrigin);
    const code = String(given.json.token);
    const line = log.one('fedcm.assertion', { client_id: world.client.clientId });
    expect(line.outcome).toBe('success');
    expect(log.text.join('')).not.toContain(code);
    await idpRequest(world, '/fedcm/disconnect', {
      form: { client_id: world.client.clientId, account_hint: world.user.id },
      headers: { Origin: world.rpOrigin, 'Sec-Fetch-Dest': 'webidentity', Cookie: cookie },
    });
    log.one('fedcm.disconnected', { client_id: world.client.clientId });

    const metrics = await idpRequest(world, '/metrics', { headers: { Authorization: `Bearer ${token}` } });
    expect(metrics.status).toBe(200);
    for (const event of ['refused', 'continued', 'assertion', 'disconnected']) {
      expect(sample(metrics.text, 'signin_fedcm_total', { event }), event).toBeGreaterThanOrEqual(1);
    }
  });
});
