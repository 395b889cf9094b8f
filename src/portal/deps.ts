// What every portal route is given: the service, the portal's first-party client and its cookies.
import type { ServiceContext } from '../service-context.ts';
import type { CookieJar } from './cookies.ts';
import type { FlashStore } from './flash.ts';
import type { PortalClient } from './portal-client.ts';

export interface PortalDeps {
  context: ServiceContext;
  client: PortalClient;
  jar: CookieJar;
  flash: FlashStore;
}
