// The developer portal's FedCM origins: the application form's textarea becomes the registry's list,
// checked as the CLI checks it, and an error comes back under the field in the owner's language.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ClientRegistry } from '../../src/clients/registry.ts';
import { ClientValidationError } from '../../src/clients/validate.ts';
import { fieldMessages, formOf, readAppForm, toClientInput } from '../../src/portal/app-form.ts';
import { portalTranslator } from '../../src/portal/portal-messages.ts';
import { migrate } from '../../adapters/sql/migrate.ts';
import { freshPglite } from '../support/databases.ts';
import type { Database } from '../../adapters/sql/database.ts';

let db: Database;
let clients: ClientRegistry;
beforeAll(async () => {
  db = await freshPglite();
  await migrate(db);
  clients = new ClientRegistry(db);
}, 60_000);
afterAll(() => db?.close());

const form = (origins: string) =>
  readAppForm(
    new URLSearchParams([
      ['name', 'Boutique'],
      ['description', 'Une boutique en ligne'],
      ['app_type', 'web'],
      ['redirect_uris', 'https://boutique.example/callback'],
      ['scope', 'openid'],
      ['scope', 'email'],
      ['fedcm_origins', origins],
    ]),
  );

describe('FedCM origins in the portal form', () => {
  it('registers the origins typed one per line, and shows them again in the edit form', async () => {
    const { client } = await clients.create(toClientInput(form('https://www.boutique.example\r\n\r\nhttps://shop.example:8443')));
    expect(client.fedcmOrigins).toEqual(['https://www.boutique.example', 'https://shop.example:8443']);
    expect(formOf(client).fedcmOrigins).toBe('https://www.boutique.example\nhttps://shop.example:8443');
    const { appType: _fixed, ...patch } = toClientInput({ ...formOf(client), fedcmOrigins: '' });
    expect((await clients.update(client.clientId, patch))?.fedcmOrigins).toEqual([]);
  });

  it('refuses an origin with a path or over http, with a message under the field', async () => {
    const refused = await clients
      .create(toClientInput(form('https://www.boutique.example/\nhttp://boutique.example')))
      .catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ClientValidationError);
    const messages = fieldMessages((refused as ClientValidationError).errors, portalTranslator('fr'));
    expect(messages.fedcmOrigins).toHaveLength(2);
    expect(messages.fedcmOrigins![0]).toContain('n’est pas une origine');
    expect(messages.fedcmOrigins![1]).toContain('https');
  });
});
