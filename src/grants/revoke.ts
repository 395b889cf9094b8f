// Ends a grant: the grant itself and every code and token issued under it, wherever each model lives.
import type { AdapterFactory } from '../../adapters/adapter.ts';

const GRANT_BOUND_MODELS = ['AccessToken', 'AuthorizationCode', 'RefreshToken', 'DeviceCode', 'BackchannelAuthenticationRequest', 'Grant'];

export async function revokeGrant(adapters: AdapterFactory, grantId: string): Promise<void> {
  await Promise.all(GRANT_BOUND_MODELS.map((model) => adapters(model).revokeByGrantId(grantId)));
  await adapters('Grant').destroy(grantId);
}
