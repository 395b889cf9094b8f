// The registry's field errors, as lines naming the CLI option at fault. The codes are the stable ones
// the portal translates; here they become English sentences.
import type { FieldError } from '../clients/validate.ts';
import { APP_TYPES } from '../clients/validate.ts';
import { REDIRECT_URI_RULES } from '../clients/redirect-uris.ts';
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
  switch (error.code) {
    case 'required':
      return 'is required';
    case 'too_long':
      return `must be at most ${MAX_LENGTH[error.field] ?? '?'} characters`;
    case 'invalid':
      return `${value} is not one of ${APP_TYPES.join(', ')}`;
    case 'redirect_uri.wildcard':
      return `${value} must not contain a wildcard (*)`;
    case 'redirect_uri.not_absolute':
      return `${value} is not an absolute URI`;
    case 'redirect_uri.userinfo':
      return `${value} ${REDIRECT_URI_RULES['redirect_uri.userinfo']}`;
    case 'redirect_uri.fragment':
      return `${value} must not contain a fragment (#)`;
    case 'redirect_uri.https_required':
      return `${value} must use https (except http://localhost and http://127.0.0.1)`;
    case 'redirect_uri.mobile_scheme':
      return `${value} must use https, http://localhost, or a private-use scheme in reverse-domain form (com.example.app:/callback)`;
    case 'unknown':
      return `${value} is not a known scope (${SCOPES.join(', ')})`;
    case 'required_scope':
      return `must include ${value}`;
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
