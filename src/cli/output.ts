// How results are printed. Client views are built here, field by field, so that the secret hash
// can never reach the output by way of a spread.
import type { RegisteredClient } from '../clients/registry.ts';
import type { CliIo } from './io.ts';

export const printLine = (io: CliIo, text = ''): void => io.stdout(`${text}\n`);
export const printJson = (io: CliIo, value: unknown): void => io.stdout(`${JSON.stringify(value, null, 2)}\n`);

export interface ClientView {
  client_id: string;
  name: string;
  description: string;
  app_type: string;
  redirect_uris: string[];
  scopes: string[];
  owner_id: string | null;
  logo_uri: string | null;
  policy_uri: string | null;
  tos_uri: string | null;
  verified: boolean;
  created_at: string;
  updated_at: string;
}

export function clientView(client: RegisteredClient): ClientView {
  return {
    client_id: client.clientId,
    name: client.name,
    description: client.description,
    app_type: client.appType,
    redirect_uris: client.redirectUris,
    scopes: client.scopes,
    owner_id: client.ownerId,
    logo_uri: client.logoUri,
    policy_uri: client.policyUri,
    tos_uri: client.tosUri,
    verified: client.verifiedAt !== null,
    created_at: client.createdAt.toISOString(),
    updated_at: client.updatedAt.toISOString(),
  };
}

export function clientDetails(client: RegisteredClient): string {
  const rows: Array<[string, string]> = [
    ['client_id', client.clientId],
    ['name', client.name],
    ['description', client.description],
    ['type', client.appType],
    ['scopes', client.scopes.join(' ')],
    ...client.redirectUris.map((uri): [string, string] => ['redirect_uri', uri]),
    ['owner', client.ownerId ?? '(none)'],
    ['verified', client.verifiedAt ? client.verifiedAt.toISOString() : 'no'],
    ...(['logoUri', 'policyUri', 'tosUri'] as const).flatMap((key): Array<[string, string]> =>
      client[key] ? [[key.replace('Uri', '_uri').toLowerCase(), client[key]]] : [],
    ),
    ['created', client.createdAt.toISOString()],
    ['updated', client.updatedAt.toISOString()],
  ];
  return rows.map(([key, value]) => `${`${key}:`.padEnd(14)}${value}`).join('\n');
}

export function clientTable(clients: RegisteredClient[]): string {
  const rows = [['CLIENT_ID', 'TYPE', 'CREATED', 'NAME']];
  for (const c of clients) rows.push([c.clientId, c.appType, c.createdAt.toISOString().slice(0, 10), c.name]);
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  return rows.map((r) => r.map((cell, i) => (i === r.length - 1 ? cell : cell.padEnd(widths[i]))).join('  ')).join('\n');
}

/** Prints a usage text; returns the exit code of `--help`. */
export function printHelp(io: CliIo, text: string): number {
  io.stdout(text.endsWith('\n') ? text : `${text}\n`);
  return 0;
}
