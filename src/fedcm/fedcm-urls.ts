// Where the FedCM endpoints live, under the issuer (a service mounted at /auth serves /auth/fedcm/...).
import { FEDCM_PATH } from '../pages/fedcm-login-status.ts';

export const FEDCM_ROUTES = {
  config: `${FEDCM_PATH}/config.json`,
  accounts: `${FEDCM_PATH}/accounts`,
  clientMetadata: `${FEDCM_PATH}/client_metadata`,
  assertion: `${FEDCM_PATH}/assertion`,
  disconnect: `${FEDCM_PATH}/disconnect`,
  login: `${FEDCM_PATH}/login`,
  continue: `${FEDCM_PATH}/continue`,
  signedIn: `${FEDCM_PATH}/signed-in`,
  script: `${FEDCM_PATH}/client.js`,
} as const;

export const WELL_KNOWN_PATH = '/.well-known/web-identity';

/** The config URL an application passes to `navigator.credentials.get` (`configURL`). */
export const fedcmConfigUrl = (issuer: string): string => `${issuer}${FEDCM_ROUTES.config}`;
