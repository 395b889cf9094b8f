// `signin client verify CLIENT_ID [--remove]`: an operator confirms who publishes an application. The
// consent screen then shows the owner's e-mail domain and the application's logo instead of
// "application non vérifiée". A new name or logo ends the verification (src/clients/registry.ts).
// Also the `--logo-uri`, `--policy-uri` and `--tos-uri` options of `client create` and `client update`.
import type { ClientLinks } from '../clients/client-links.ts';
import { cliEvent } from '../log/cli-events.ts';
import { COMMON_OPTIONS, JSON_OPTION, expectPositionals, parseCommand } from './args.ts';
import { CommandError } from './command-errors.ts';
import { CLIENT_HELP } from './help.ts';
import type { CliIo } from './io.ts';
import { loadStoresConfig, withStores } from './open-stores.ts';
import { clientView, printHelp, printJson, printLine } from './output.ts';

const HELP_COMMAND = 'signin client --help';

/** The consent screen's links; an empty value (`--logo-uri ''`) removes one. */
export const LINK_OPTIONS = {
  'logo-uri': { type: 'string' },
  'policy-uri': { type: 'string' },
  'tos-uri': { type: 'string' },
} as const;

export function linksOf(values: { 'logo-uri'?: string; 'policy-uri'?: string; 'tos-uri'?: string }): Partial<ClientLinks> {
  return { logoUri: values['logo-uri'], policyUri: values['policy-uri'], tosUri: values['tos-uri'] };
}

const VERIFY_OPTIONS = { ...COMMON_OPTIONS, ...JSON_OPTION, remove: { type: 'boolean' } } as const;

export async function verifyClient(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommand(args, VERIFY_OPTIONS, HELP_COMMAND);
  if (values.help) return printHelp(io, CLIENT_HELP);
  const [clientId] = expectPositionals(positionals, ['CLIENT_ID'], HELP_COMMAND);
  const verified = !values.remove;
  const client = await withStores(loadStoresConfig(values.config, io), ({ clients }) => clients.setVerified(clientId, verified));
  if (!client) throw new CommandError(`no client with id ${clientId}`);
  cliEvent(io, 'application.changed', { client_id: clientId, reason: verified ? 'verified' : 'verification_removed' });
  if (values.json) printJson(io, clientView(client));
  else printLine(io, verified ? `verified client ${clientId} ("${client.name}")` : `client ${clientId} is no longer verified`);
  return 0;
}
