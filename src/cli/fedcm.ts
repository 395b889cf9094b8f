// FedCM from the command line:
//  - `signin fedcm well-known`: the `/.well-known/web-identity` file of this service, to place at the root
//    of the registrable domain when the issuer is on a subdomain (login.example.org: the browser reads the
//    file at https://example.org/.well-known/web-identity, which this service does not serve);
//  - `signin client fedcm-origins CLIENT_ID [--origin URL ...] [--clear]`: the origins from which an
//    application may ask for a sign-in through the browser's chooser, besides its redirect URIs' origins.
import { fedcmOriginsOf } from '../clients/fedcm-origins.ts';
import { ClientValidationError } from '../clients/validate.ts';
import { fedcmOn } from '../config/fedcm-schema.ts';
import { servesWellKnown, wellKnownFile } from '../fedcm/config-file.ts';
import { cliEvent } from '../log/cli-events.ts';
import { COMMON_OPTIONS, JSON_OPTION, expectPositionals, parseCommand } from './args.ts';
import { CommandError, UsageError } from './command-errors.ts';
import { describeFieldErrors } from './field-errors.ts';
import type { CliIo } from './io.ts';
import { loadCliConfig, loadStoresConfig, withStores } from './open-stores.ts';
import { printHelp, printJson, printLine } from './output.ts';
import { CLIENT_HELP } from './help.ts';

export const FEDCM_HELP = `Usage:
  signin fedcm well-known [--config PATH]

well-known prints the /.well-known/web-identity file of this service. The browser reads it at the root
of the issuer's registrable domain (https://example.org/.well-known/web-identity for an issuer on
login.example.org), without redirects, as application/json. The service serves it itself only when its
issuer is that domain; otherwise place this file there.

The origins from which an application may use FedCM: signin client fedcm-origins (signin client --help).
`;

const HELP_COMMAND = 'signin fedcm --help';

export async function runFedcm(args: string[], io: CliIo): Promise<number> {
  const [action, ...rest] = args;
  if (action === '--help' || action === '-h') return printHelp(io, FEDCM_HELP);
  if (action !== 'well-known') throw new UsageError(`unknown command: signin fedcm ${action ?? ''}`.trim(), HELP_COMMAND);
  const { values, positionals } = parseCommand(rest, COMMON_OPTIONS, HELP_COMMAND);
  if (values.help) return printHelp(io, FEDCM_HELP);
  expectPositionals(positionals, [], HELP_COMMAND);
  const config = loadCliConfig(values.config, io);
  if (!fedcmOn(config)) throw new CommandError('FedCM is off: the issuer is not https, or fedcm.enabled is false');
  const host = new URL(config.issuer).hostname;
  if (servesWellKnown(config.issuer)) io.stderr(`note: the service serves this file itself at ${config.issuer}/.well-known/web-identity\n`);
  else io.stderr(`place this file at https://<the registrable domain of ${host}>/.well-known/web-identity\n`);
  printJson(io, wellKnownFile(config));
  return 0;
}

const ORIGIN_OPTIONS = {
  ...COMMON_OPTIONS,
  ...JSON_OPTION,
  origin: { type: 'string', multiple: true },
  clear: { type: 'boolean' },
} as const;

export async function fedcmOriginsCommand(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommand(args, ORIGIN_OPTIONS, 'signin client --help');
  if (values.help) return printHelp(io, CLIENT_HELP);
  const [clientId] = expectPositionals(positionals, ['CLIENT_ID'], 'signin client --help');
  const change = values.clear ? [] : values.origin;
  const client = await withStores(loadStoresConfig(values.config, io), async ({ clients }) => {
    if (change === undefined) return clients.get(clientId);
    try {
      return await clients.setFedcmOrigins(clientId, change);
    } catch (error) {
      if (error instanceof ClientValidationError) throw new CommandError(describeFieldErrors(error.errors));
      throw error;
    }
  });
  if (!client) throw new CommandError(`no client with id ${clientId}`);
  if (change !== undefined) cliEvent(io, 'application.changed', { client_id: clientId, reason: 'fedcm_origins' });
  const origins = fedcmOriginsOf(client);
  if (values.json) printJson(io, { client_id: clientId, added: client.fedcmOrigins, origins });
  else for (const origin of origins) printLine(io, origin);
  return 0;
}
