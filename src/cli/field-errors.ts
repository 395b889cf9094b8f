// The registry's field errors, as lines naming the CLI option at fault. The codes are the stable ones
// the portal translates; here they become English sentences.
import type { FieldError } from '../clients/validate.ts';
import { APP_TYPES } from '../clients/validate.ts';
import { describeRedirectUriProblem, isRedirectUriProblem } from '../clients/redirect-uris.ts';
import { FEDCM_ORIGIN_RULE } from '../clients/fedcm-origins.ts';
import { SCOPES } from '../policy/scopes.ts';

const OPTION: Record<FieldError['field'], string> = {
  name: '--name',
  description: '--description',
  appType: '--type',
  redirectUris: '--redirect-uri',
  scopes: '--scopes',
  logoUri: '--logo-uri',
  policyUri: '--policy-uri',
  tosUri: '--tos-uri',
  fedcmOrigins: '--fedcm-origin',
};

const MAX_LENGTH: Partial<Record<FieldError['field'], number>> = {
  name: 100,
  description: 1000,
  logoUri: 500,
  policyUri: 500,
  tosUri: 500,
};

function describe(error: FieldError): string {
  const value = error.value ?? '';
  // The rule in words, the form to write for a non-canonical URI, and the rule's code.
  if (isRedirectUriProblem(error.code)) return `${value} ${describeRedirectUriProblem(value, error.code)}`;
  switch (error.code) {
    case 'required':
      return 'is required';
    case 'too_long':
      return `must be at most ${MAX_LENGTH[error.field] ?? '?'} characters`;
    case 'invalid':
      return `${value} is not one of ${APP_TYPES.join(', ')}`;
    case 'unknown':
      return `${value} is not a known scope (${SCOPES.join(', ')})`;
    case 'required_scope':
      return `must include ${value}`;
    case 'fedcm_origin.not_origin':
      return `${value} ${FEDCM_ORIGIN_RULE}`;
    case 'not_for_server':
      return `${value}: a server application (client_credentials) has no redirect URI and no scope`;
    case 'link.not_absolute':
    case 'link.https_required':
    case 'link.userinfo':
    case 'link.fragment':
    case 'link.unsafe':
      return `${value} must be an https URL without user name, fragment, quote, comma or semicolon`;
    default:
      // A code added to the registry after this file: still say something useful.
      return value ? `${error.code} (${value})` : error.code;
  }
}

export const describeFieldErrors = (errors: FieldError[]): string =>
  errors.map((error) => `${OPTION[error.field]}: ${describe(error)}`).join('\n');
