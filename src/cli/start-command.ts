// The command that starts the server, as the person reading it can type it. A clone of the repository runs
// the sources (this file is TypeScript there, JavaScript in the installed package's build), where `signin`
// is not on the PATH and `npm start` is the way; the installed package has the `signin` command.
import { resolve } from 'node:path';
import { DEFAULT_CONFIG_FILE } from './open-stores.ts';

const runsFromSources = import.meta.url.endsWith('.ts');

/** `npm start` or `signin serve`, with `--config` unless the file is the one read by default. */
export function startCommand(configFile: string, fromSources = runsFromSources): string {
  const config = resolve(configFile) === resolve(DEFAULT_CONFIG_FILE) ? '' : ` --config ${configFile}`;
  if (!fromSources) return `signin serve${config}`;
  return config ? `npm start --${config}` : 'npm start';
}
