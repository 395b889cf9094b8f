// A sign-in reads its application from the database once: the engine, the authorization request's
// redirect check and the login and consent pages all read it through one short-lived cache
// (src/clients/client-cache.ts), which a change to the application empties at once. The login form
// reads the account by its address once too: the limit's key and the password check share the read.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStorage, type Storage } from '../../adapters/storage.ts';
import { signIn } from '../support/flow.ts';
import { relyingParty } from '../support/relying-party.ts';
import { startTestService, type TestService } from '../support/service.ts';
import { recording, type Recorded } from './helpers/recording.ts';

const CLIENT_READ = /FROM clients WHERE client_id/;
const ACCOUNT_BY_ADDRESS = /FROM accounts WHERE lower\(email\)/;

let storage: Storage;
let svc: TestService;
let statements: Recorded[] = [];

beforeAll(async () => {
  storage = await openStorage({ kind: 'embedded', dataDir: 'memory://' });
  const recorded = recording(storage.db);
  statements = recorded.statements;
  svc = await startTestService({}, { storage: { ...storage, db: recorded.db } });
});
afterAll(async () => {
  await svc?.stop();
  await storage?.close();
});

const clientReads = () => statements.filter(({ sql }) => CLIENT_READ.test(sql)).length;
const accountReads = () => statements.filter(({ sql }) => ACCOUNT_BY_ADDRESS.test(sql)).length;

describe('reads of the application during a sign-in', () => {
  it('reads it once for the whole sign-in, and again after it changed', async () => {
    const client = await svc.createClient();
    const user = await svc.createUser();
    const before = clientReads();
    const { tokens } = await signIn(svc.url, await relyingParty(svc.url, client), user);
    expect(tokens.access_token).toBeTruthy();
    expect(clientReads() - before).toBe(1);

    await svc.service.context.clients.update(client.clientId, { name: 'Nouveau nom' });
    const afterChange = clientReads();
    await signIn(svc.url, await relyingParty(svc.url, client), user);
    expect(clientReads() - afterChange).toBe(1);
  });

  it('reads the account by its address once for the login form', async () => {
    const client = await svc.createClient();
    const user = await svc.createUser();
    const before = accountReads();
    await signIn(svc.url, await relyingParty(svc.url, client), user);
    expect(accountReads() - before).toBe(1);
  });
});
