// The portal session never outlives the service session it was opened through: ending the user's
// sessions (sign out everywhere, a password reset) ends portal access too.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AccountSessionStore } from '../../src/accounts/sessions.ts';
import { accountSessions } from '../../src/provider/account-sessions.ts';
import { startTestService, type TestService } from '../support/service.ts';
import { get, signInToPortal } from './support.ts';

describe('portal and service sessions', () => {
  let ts: TestService;
  beforeAll(async () => {
    ts = await startTestService();
  });
  afterAll(() => ts.stop());

  it('signs the owner out of the portal when their service sessions end', async () => {
    const owner = await signInToPortal(ts);
    expect((await get(owner, '/apps/new')).status).toBe(200);

    const { db, provider } = ts.service.context;
    expect(await accountSessions(provider, new AccountSessionStore(db)).endAll(owner.id)).toBeGreaterThan(0);

    const after = await get(owner, '/apps/new');
    expect(after.status).not.toBe(200);
    expect(after.text).not.toContain(owner.email);
  });
});
