// What `npm start` runs: the service on its own, configured by a file (`--config PATH` or
// SIGNIN_CONFIG), or by the development defaults on the embedded store when neither is given.
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from '../../src/index.ts';
import { startServer } from '../../src/server.ts';

async function main(): Promise<number> {
  const { values } = parseArgs({ options: { config: { type: 'string', short: 'c' } }, strict: true });
  const config = loadConfig(values.config);
  const running = await startServer(config);
  console.log(`sign-in service listening on ${running.url} (issuer ${config.issuer}, storage ${config.storage.kind})`);
  if (!config.production && !values.config && !process.env.SIGNIN_CONFIG) {
    console.log('development defaults in use: run `npm run signin -- init` to write a config file with fresh secrets');
  }
  const stop = async () => {
    await running.stop();
    process.exit(0);
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  return -1;
}

main().then(
  (code) => {
    if (code >= 0) process.exit(code);
  },
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
