// How far to believe X-Forwarded-For. A proxy appends the address it saw to whatever the client sent,
// so only the last `hops` entries are real; Koa reads the left-most, client-written one unless told.
import type Koa from 'koa';
import type { SignInConfig } from '../config/schema.ts';

export function proxyHops(config: Pick<SignInConfig, 'trustProxy'>): number {
  return config.trustProxy === true ? 1 : config.trustProxy === false ? 0 : config.trustProxy;
}

export function trustProxies(app: Koa, config: Pick<SignInConfig, 'trustProxy'>): void {
  const hops = proxyHops(config);
  app.proxy = hops > 0;
  app.maxIpsCount = hops;
}
