// `signin client ...`: registers and manages applications. A secret is printed only by create and
// rotate-secret, once; every other output is built from `clientView`, which has no secret field.
import { invalidRedirectUriReport } from '../clients/redirect-uris.ts';
import { isSecretOverlap, SECRET_OVERLAPS } from '../clients/secret-overlap.ts';
import { ClientValidationError } from '../clients/validate.ts';
import { cliEvent } from '../log/cli-events.ts';
import { COMMON_OPTIONS, JSON_OPTION, expectPositionals, parseCommand, requireOption } from './args.ts';
import { CommandError, UsageError } from './command-errors.ts';
import { describeFieldErrors } from './field-errors.ts';
import { CLIENT_HELP } from './help.ts';
import { LINK_OPTIONS, linksOf, verifyClient } from './client-verify.ts';
import { fedcmOriginsCommand } from './fedcm.ts';
import type { CliIo } from './io.ts';
import { loadEngineStoresConfig, loadStoresConfig, withEngineStores, withStores } from './open-stores.ts';
import { revokeClientGrants } from '../grants/revoke.ts';
import { clientDetails, clientTable, clientView, printHelp, printJson, printLine } from './output.ts';
import { didYouMean } from '../config/did-you-mean.ts';

const HELP_COMMAND = 'signin client --help';
const READ_OPTIONS = { ...COMMON_OPTIONS, ...JSON_OPTION } as const;
const ROTATE_OPTIONS = { ...READ_OPTIONS, overlap: { type: 'string' } } as const;
const CREATE_OPTIONS = {
  ...READ_OPTIONS,
  name: { type: 'string' },
  description: { type: 'string' },
  type: { type: 'string' },
  'redirect-uri': { type: 'string', multiple: true },
  scopes: { type: 'string' },
  ...LINK_OPTIONS,
} as const;
// What the portal's edit form changes; the type is fixed at registration.
const { type: _type, ...UPDATE_OPTIONS } = CREATE_OPTIONS;

const ACTIONS: Record<string, (args: string[], io: CliIo) => Promise<number>> = {
  create: createClient,
  list: listClients,
  show: showClient,
  update: updateClient,
  delete: deleteClient,
  'rotate-secret': rotateSecret,
  verify: verifyClient,
  'fedcm-origins': fedcmOriginsCommand,
};

export async function runClient(args: string[], io: CliIo): Promise<number> {
  const [action, ...rest] = args;
  if (action === undefined) throw new UsageError(`missing command: signin client ${Object.keys(ACTIONS).join('|')}`, HELP_COMMAND);
  if (action === '--help' || action === '-h') return printHelp(io, CLIENT_HELP);
  const handler = Object.hasOwn(ACTIONS, action) ? ACTIONS[action] : undefined;
  if (!handler) throw new UsageError(`unknown command: signin client ${action}${didYouMean(action, Object.keys(ACTIONS))}`, HELP_COMMAND);
  return handler(rest, io);
}

async function createClient(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommand(args, CREATE_OPTIONS, HELP_COMMAND);
  if (values.help) return printHelp(io, CLIENT_HELP);
  expectPositionals(positionals, [], HELP_COMMAND);
  const appType = requireOption(values.type, 'type', HELP_COMMAND);
  // A server application (client_credentials) has neither: what is given anyway is refused by the registry.
  const machine = appType === 'server';
  const input = {
    name: requireOption(values.name, 'name', HELP_COMMAND),
    description: requireOption(values.description, 'description', HELP_COMMAND),
    appType,
    redirectUris: machine ? (values['redirect-uri'] ?? []) : requireOption(values['redirect-uri'], 'redirect-uri', HELP_COMMAND),
    scopes: splitScopes(machine ? (values.scopes ?? '') : requireOption(values.scopes, 'scopes', HELP_COMMAND)),
    ...linksOf(values),
    ownerId: null,
  };
  const config = loadStoresConfig(values.config, io);
  const { client, clientSecret } = await withStores(config, async ({ clients }) => {
    try {
      return await clients.create(input);
    } catch (error) {
      if (error instanceof ClientValidationError) throw new CommandError(describeFieldErrors(error.errors));
      throw error;
    }
  });
  cliEvent(io, 'application.created', { client_id: client.clientId });

  if (values.json) {
    const { client_id, name, app_type, redirect_uris, scopes } = clientView(client);
    printJson(io, { client_id, client_secret: clientSecret, name, app_type, redirect_uris, scopes });
    return 0;
  }
  printLine(io, `Registered "${client.name}" (${client.appType}).`);
  printLine(io, `client_id:     ${client.clientId}`);
  printLine(io, `client_secret: ${clientSecret}`);
  printLine(io, SHOWN_ONCE);
  return 0;
}

// Spaces as in an OAuth scope parameter; commas too, which are easier to type unquoted.
const splitScopes = (value: string): string[] => value.split(/[\s,]+/).filter(Boolean);

async function updateClient(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommand(args, UPDATE_OPTIONS, HELP_COMMAND);
  if (values.help) return printHelp(io, CLIENT_HELP);
  const [clientId] = expectPositionals(positionals, ['CLIENT_ID'], HELP_COMMAND);
  // Only what is given changes; --redirect-uri and --scopes replace the whole list.
  const patch = {
    name: values.name,
    description: values.description,
    redirectUris: values['redirect-uri'],
    scopes: values.scopes === undefined ? undefined : splitScopes(values.scopes),
    ...linksOf(values),
  };
  if (Object.values(patch).every((v) => v === undefined)) {
    throw new UsageError(
      'nothing to update: give --name, --description, --redirect-uri, --scopes, --logo-uri, --policy-uri or --tos-uri',
      HELP_COMMAND,
    );
  }
  const client = await withStores(loadStoresConfig(values.config, io), async ({ clients }) => {
    try {
      return await clients.update(clientId, patch);
    } catch (error) {
      if (error instanceof ClientValidationError) throw new CommandError(describeFieldErrors(error.errors));
      throw error;
    }
  });
  if (!client) throw unknownClient(clientId);
  cliEvent(io, 'application.changed', { client_id: clientId });
  if (values.json) printJson(io, clientView(client));
  else printLine(io, clientDetails(client));
  return 0;
}

const SHOWN_ONCE =
  'The client secret is shown only once: store it now. Only its hash is kept; if it is lost, run signin client rotate-secret.';

async function listClients(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommand(args, READ_OPTIONS, HELP_COMMAND);
  if (values.help) return printHelp(io, CLIENT_HELP);
  expectPositionals(positionals, [], HELP_COMMAND);
  const clients = await withStores(loadStoresConfig(values.config, io), ({ clients }) => clients.list());
  if (values.json) printJson(io, clients.map(clientView));
  else printLine(io, clients.length ? clientTable(clients) : 'no applications registered');
  for (const warning of invalidRedirectUriReport(clients)) io.stderr(`${warning}\n`);
  return 0;
}

async function showClient(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommand(args, READ_OPTIONS, HELP_COMMAND);
  if (values.help) return printHelp(io, CLIENT_HELP);
  const [clientId] = expectPositionals(positionals, ['CLIENT_ID'], HELP_COMMAND);
  const client = await withStores(loadStoresConfig(values.config, io), ({ clients }) => clients.get(clientId));
  if (!client) throw unknownClient(clientId);
  if (values.json) printJson(io, clientView(client));
  else printLine(io, clientDetails(client));
  return 0;
}

async function deleteClient(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommand(args, COMMON_OPTIONS, HELP_COMMAND);
  if (values.help) return printHelp(io, CLIENT_HELP);
  const [clientId] = expectPositionals(positionals, ['CLIENT_ID'], HELP_COMMAND);
  // A running server revokes on its own deletes only; here the CLI ends the grants itself.
  const deleted = await withEngineStores(loadEngineStoresConfig(values.config, io), async ({ clients, consents, adapters }) => {
    const found = await clients.delete(clientId);
    if (found) await revokeClientGrants(adapters, consents, clientId);
    return found;
  });
  if (!deleted) throw unknownClient(clientId);
  cliEvent(io, 'application.deleted', { client_id: clientId });
  printLine(io, `deleted client ${clientId}`);
  return 0;
}

async function rotateSecret(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommand(args, ROTATE_OPTIONS, HELP_COMMAND);
  if (values.help) return printHelp(io, CLIENT_HELP);
  const [clientId] = expectPositionals(positionals, ['CLIENT_ID'], HELP_COMMAND);
  // As in the portal: the old secret may keep working for an overlap, for a rolling deployment.
  const overlap = values.overlap ?? 'none';
  if (!isSecretOverlap(overlap)) throw new UsageError(`--overlap must be one of ${Object.keys(SECRET_OVERLAPS).join(', ')}`, HELP_COMMAND);
  const rotated = await withStores(loadStoresConfig(values.config, io), async ({ clients }) => {
    const secret = await clients.rotateSecret(clientId, overlap);
    return secret === undefined ? undefined : { secret, previous: (await clients.get(clientId))?.previousSecret ?? null };
  });
  if (rotated === undefined) throw unknownClient(clientId);
  cliEvent(io, 'application.secret_rotated', { client_id: clientId });
  const until = rotated.previous?.expiresAt.toISOString() ?? null;
  if (values.json) {
    printJson(io, { client_id: clientId, client_secret: rotated.secret, previous_secret_valid_until: until });
    return 0;
  }
  printLine(io, `client_id:     ${clientId}`);
  printLine(io, `client_secret: ${rotated.secret}`);
  printLine(io, `${until ? `The previous secret keeps working until ${until}.` : 'The previous secret no longer works.'} ${SHOWN_ONCE}`);
  return 0;
}

const unknownClient = (clientId: string): CommandError => new CommandError(`no client with id ${clientId}`);
