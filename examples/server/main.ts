// The standalone server as a program of your own: the service configured by a file (`--config PATH` or
// SIGNIN_CONFIG), or by the development defaults on the embedded store, stopped gracefully on SIGTERM
// or SIGINT. `signin serve` (what `npm start` runs) does the same, with --port and PORT.
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from '../../src/index.ts';
import { drainSecondsOf, startServer, stopOnSignals } from '../../src/server.ts';

async function main(): Promise<number> {
  const { values } = parseArgs({ options: { config: { type: 'string', short: 'c' } }, strict: true });
  const config = loadConfig(values.config);
  const running = await startServer(config);
  console.log(`sign-in service listening on ${running.url} (issuer ${config.issuer}, storage ${config.storage.kind})`);
  return stopOnSignals(running, drainSecondsOf(config), (line) => console.log(line));
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(2);
    }
    const message = error instanceof Error ? error.message : String(error);
    console.error(`cannot start: ${message}`);
    process.exit(1);
  },
);
