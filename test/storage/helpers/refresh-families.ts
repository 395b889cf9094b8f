// Refresh-token families as the SQL store keeps them, for the tests of their rotations.
import type { Payload } from '../../../adapters/adapter.ts';

const now = () => Math.floor(Date.now() / 1000);

/** A refresh token's payload as the engine gives it, for a minute; `parent` for a successor. */
export const refreshTokenPayload = (id: string, grantId: string, parent?: string): Payload => ({
  kind: 'RefreshToken',
  jti: id,
  grantId,
  clientId: 'client',
  accountId: 'acc',
  iat: now(),
  exp: now() + 60,
  iiat: now(),
  ...(parent ? { parent } : {}),
});
