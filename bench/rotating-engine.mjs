// Preloaded into the harness's reference server (`node --import`, run from the harness's folder) for the
// comparison's "bare engine on Postgres, rotating" column: the same oidc-provider, configured the same,
// but with `rotateRefreshToken: true`. The engine's default rotates only the refresh tokens of public
// clients (and of others near their expiry), so against the benchmark's confidential client the plain
// reference issues no new refresh token and writes one row per refresh; this service rotates every
// refresh token (README "Refresh tokens"), which is a second token to create and save each time. This
// column measures what that rule costs the engine itself.
//
// The reference server has no option for it, so the setting is made on the engine instance: through the
// engine's own registry of instance internals (lib/helpers/weak_cache.js), when the first request builds
// its context. The harness's copy of the engine is the one loaded here (same file, same module).
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const engine = join(process.cwd(), 'node_modules', 'oidc-provider', 'lib');
const load = async (file) => (await import(pathToFileURL(join(engine, file)).href)).default;
const Provider = await load('index.js');
const internals = await load('helpers/weak_cache.js');

const context = Object.getOwnPropertyDescriptor(Provider.prototype, 'OIDCContext');
if (!context?.get) throw new Error('rotating-engine.mjs: this oidc-provider has no OIDCContext getter to hook');
Object.defineProperty(Provider.prototype, 'OIDCContext', {
  ...context,
  get() {
    internals(this).configuration.rotateRefreshToken = true;
    return context.get.call(this);
  },
});
