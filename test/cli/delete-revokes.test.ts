// `signin client delete` against the Postgres and Redis a running server uses: the application's
// tokens stop working at once, as they do when the portal deletes it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestService } from '../support/service.ts';
import { relyingParty } from '../support/relying-party.ts';
import { refreshGrant, signIn, userinfo } from '../support/flow.ts';
import { cli, serviceWithCli, type ServiceWithCli } from './support.ts';

let env: ServiceWithCli;
let svc: TestService;
beforeAll(async () => {
  env = await serviceWithCli();
  svc = env.svc;
}, 60_000);
afterAll(() => env?.stop());

describe('signin client delete', () => {
  it('revokes every token issued to the application, in Postgres and in Redis', async () => {
    const client = await svc.createClient();
    const { tokens } = await signIn(svc.url, await relyingParty(svc.url, client), await svc.createUser());
    expect((await userinfo(svc.url, tokens.access_token)).status).toBe(200);

    const deleted = await cli(['client', 'delete', client.clientId, '--config', env.ws.config]);
    expect(deleted.code).toBe(0);

    expect((await userinfo(svc.url, tokens.access_token)).status).toBe(401);
    // Gone from storage, not merely refused because the client is gone.
    const { adapters } = svc.service.context;
    expect(await adapters('AccessToken').find(tokens.access_token)).toBeUndefined();
    expect(await adapters('RefreshToken').find(tokens.refresh_token!)).toBeUndefined();
    const refresh = await refreshGrant(svc.url, client, tokens.refresh_token!);
    expect(refresh.status).toBe(401);
    expect(refresh.json.error).toBe('invalid_client');
  });
});
