// Field-level validation of an application's registration, shared by the CLI and the portal.
import { REQUIRED_SCOPES, isScope } from '../policy/scopes.ts';
import { canonicalRedirectUri, redirectUriProblem, type RedirectUriProblem } from './redirect-uris.ts';

export const APP_TYPES = ['web', 'spa', 'mobile', 'server'] as const;
export type AppType = (typeof APP_TYPES)[number];

export interface ClientInput {
  name: string;
  description: string;
  appType: string;
  redirectUris: string[];
  scopes: string[];
}

export interface FieldError {
  field: 'name' | 'description' | 'appType' | 'redirectUris' | 'scopes' | 'logoUri' | 'policyUri' | 'tosUri' | 'fedcmOrigins';
  /** A stable code the pages translate, e.g. `redirect_uri.https_required`. */
  code: string;
  /** The value at fault, when there is one. */
  value?: string;
  /** How to write it instead: the canonical form of a redirect URI that is not (`redirect_uri.not_canonical`). */
  canonical?: string;
}

/** The problem code of `raw` as a redirect URI of this type of application (the rules: redirect-uris.ts). */
export function validateRedirectUri(raw: string, appType: string): RedirectUriProblem | undefined {
  return redirectUriProblem(raw, appType);
}

export function validateClientInput(input: ClientInput): FieldError[] {
  const errors: FieldError[] = [];
  if (!input.name?.trim()) errors.push({ field: 'name', code: 'required' });
  else if (input.name.length > 100) errors.push({ field: 'name', code: 'too_long' });
  if (!input.description?.trim()) errors.push({ field: 'description', code: 'required' });
  else if (input.description.length > 1000) errors.push({ field: 'description', code: 'too_long' });
  if (!(APP_TYPES as readonly string[]).includes(input.appType)) errors.push({ field: 'appType', code: 'invalid', value: input.appType });
  if (input.appType === 'server') return [...errors, ...machineClientErrors(input)];
  if (!input.redirectUris?.length) errors.push({ field: 'redirectUris', code: 'required' });
  for (const uri of input.redirectUris ?? []) {
    const code = validateRedirectUri(uri, input.appType);
    if (code === 'redirect_uri.not_canonical')
      errors.push({ field: 'redirectUris', code, value: uri, canonical: canonicalRedirectUri(uri) });
    else if (code) errors.push({ field: 'redirectUris', code, value: uri });
  }
  for (const scope of input.scopes ?? []) {
    if (!isScope(scope)) errors.push({ field: 'scopes', code: 'unknown', value: scope });
  }
  for (const scope of REQUIRED_SCOPES) {
    if (!input.scopes?.includes(scope)) errors.push({ field: 'scopes', code: 'required_scope', value: scope });
  }
  return errors;
}

/**
 * A server application (machine to machine, client_credentials) signs no user in: a redirect URI would
 * never be used, and the user scopes describe a user its tokens never name. Both lists stay empty.
 */
function machineClientErrors(input: Pick<ClientInput, 'redirectUris' | 'scopes'>): FieldError[] {
  return [
    ...(input.redirectUris ?? []).map((uri): FieldError => ({ field: 'redirectUris', code: 'not_for_server', value: uri })),
    ...(input.scopes ?? []).map((scope): FieldError => ({ field: 'scopes', code: 'not_for_server', value: scope })),
  ];
}

export class ClientValidationError extends Error {
  constructor(readonly errors: FieldError[]) {
    super(`invalid application: ${errors.map((e) => `${e.field} ${e.code}${e.value ? ` (${e.value})` : ''}`).join(', ')}`);
    this.name = 'ClientValidationError';
  }
}
