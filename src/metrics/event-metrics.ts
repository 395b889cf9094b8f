// Counts fed by events rather than by requests: tokens the engine issued (its public `grant.success`
// event, with the grant type the client asked for), and the security events an operator graphs
// (sign-ins by outcome, codes and refresh tokens presented again, whichever layer caught them).
import type Provider from 'oidc-provider';
import type { KoaContextWithOIDC } from 'oidc-provider';
import { observeSecurityEvents, type SecurityEventName } from '../log/security-log.ts';
import { countFedcm, countPhoneCode, countSignIn, countTokenIssued, countTokenReuse } from './registry.ts';

export function countEngineEvents(provider: Provider): void {
  provider.on('grant.success', (ctx: KoaContextWithOIDC) => countTokenIssued(ctx.oidc?.params?.grant_type));
}

const COUNTERS: Partial<Record<SecurityEventName, () => void>> = {
  'sign_in.success': () => countSignIn('success'),
  'sign_in.failure': () => countSignIn('failure'),
  'sign_in.throttled': () => countSignIn('throttled'),
  'authorization_code.reuse': () => countTokenReuse('authorization_code'),
  'refresh_token.reuse': () => countTokenReuse('refresh_token'),
  'fedcm.assertion': () => countFedcm('assertion'),
  'fedcm.continued': () => countFedcm('continued'),
  'fedcm.refused': () => countFedcm('refused'),
  'fedcm.disconnected': () => countFedcm('disconnected'),
  'phone.code_sent': () => countPhoneCode('sent'),
  'phone.throttled': () => countPhoneCode('throttled'),
  'phone.budget_exhausted': () => countPhoneCode('budget_exhausted'),
  'phone.gateway_failed': () => countPhoneCode('gateway_failed'),
};

/** The security log's observer is one for the process, as the registry is: set once, whatever the services. */
export function countSecurityEvents(): void {
  observeSecurityEvents((name) => COUNTERS[name]?.());
}
