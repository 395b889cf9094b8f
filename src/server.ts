// The standalone server: one HTTP listener around the service, stopped cleanly on SIGINT/SIGTERM.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { SignInConfig } from './config/schema.ts';
import { createSignInService, type SignInService, type SignInServiceOptions } from './service.ts';

export interface RunningServer {
  service: SignInService;
  server: Server;
  url: string;
  stop(): Promise<void>;
}

export async function startServer(config: SignInConfig, options: SignInServiceOptions & { port?: number } = {}): Promise<RunningServer> {
  const service = await createSignInService(config, options);
  const server = createServer(service.app.callback());
  // Slow clients on poor networks are normal for our users; idle sockets are still reclaimed.
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? config.port, '0.0.0.0', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    service,
    server,
    url: `http://localhost:${port}`,
    async stop() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
      });
      await service.close();
    },
  };
}
