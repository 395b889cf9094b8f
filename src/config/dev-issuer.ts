// A development issuer follows the port the server is told to listen on. On a laptop the issuer is the
// server's own address (http://localhost:3000), so `PORT=4900 npm start` that moved only the listener
// advertised :3000 in discovery, and every application then stopped on an issuer mismatch. In production,
// or behind a proxy (an issuer that is not a loopback address, or whose port is not the listener's), the
// issuer is the public address and the listening port says nothing about it.
import type { SignInConfig } from './schema.ts';

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

/** The port an http(s) URL reaches: its own, else its scheme's. */
const portOfUrl = (url: URL): number => (url.port ? Number(url.port) : url.protocol === 'https:' ? 443 : 80);

/**
 * The issuer to serve when listening on `port`: the configured one, or, for a development issuer that
 * names the configured port on a loopback host, the same URL on `port`.
 */
export function issuerForPort(config: Pick<SignInConfig, 'issuer' | 'port' | 'production'>, port: number): string {
  if (config.production || port === config.port || port === 0) return config.issuer;
  const url = new URL(config.issuer);
  if (!LOOPBACK.has(url.hostname) || portOfUrl(url) !== config.port) return config.issuer;
  url.port = String(port);
  return url.href.replace(/\/$/, '');
}
