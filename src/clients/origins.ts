// Which browser origins the registered applications run on: the origin of each of their redirect URIs.
// A CORS preflight carries no client_id, so the service answers it from this index: an origin is let in
// only if a registered application could call from it (see src/edge/cors-preflight.ts and, for the
// request itself, src/provider/cors.ts).
import type { ClientRegistry, RegisteredClient } from './registry.ts';

export interface ClientOrigins {
  /** Origins of single-page applications: they may call the token, revocation and introspection endpoints. */
  spa: ReadonlySet<string>;
  /** Origins of every application: any of them may call userinfo. */
  any: ReadonlySet<string>;
}

export function originsOf(clients: readonly Pick<RegisteredClient, 'appType' | 'redirectUris'>[]): ClientOrigins {
  const spa = new Set<string>();
  const any = new Set<string>();
  for (const client of clients) {
    for (const uri of client.redirectUris) {
      const origin = URL.parse(uri)?.origin;
      // Custom schemes have an opaque origin ("null"), which no browser page may claim.
      if (!origin || origin === 'null') continue;
      any.add(origin);
      if (client.appType === 'spa') spa.add(origin);
    }
  }
  return { spa, any };
}

export type OriginUse = keyof ClientOrigins;

/**
 * Whether `origin` is one of the registered applications' (of single-page applications for `spa`).
 * The origins are read from the registry at most once per `maxAgeMs`, again at once after a change
 * made through it, and again on a miss once the last read is `missAfterMs` old: an application just
 * registered (here, by the CLI or by another instance) is let in at its first preflight, and a stream of
 * unknown origins costs at most one read per `missAfterMs`.
 */
export function clientOrigins(
  registry: Pick<ClientRegistry, 'list' | 'onChange'>,
  options: { maxAgeMs?: number; missAfterMs?: number } = {},
) {
  const { maxAgeMs = 5000, missAfterMs = 1000 } = options;
  let cached: { at: number; origins: Promise<ClientOrigins> } | undefined;
  registry.onChange(() => {
    cached = undefined;
  });
  const read = (): Promise<ClientOrigins> => {
    const origins = registry.list().then(originsOf);
    // A failed read is not kept: the next preflight asks again.
    origins.catch(() => {
      if (cached?.origins === origins) cached = undefined;
    });
    cached = { at: Date.now(), origins };
    return origins;
  };
  return async function isKnownOrigin(origin: string, use: OriginUse): Promise<boolean> {
    const age = cached ? Date.now() - cached.at : Infinity;
    const known = age < maxAgeMs && cached ? await cached.origins : await read();
    if (known[use].has(origin)) return true;
    if (Date.now() - (cached?.at ?? 0) < missAfterMs) return false;
    return (await read())[use].has(origin);
  };
}
