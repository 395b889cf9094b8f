// The application form: what the browser posts, as the registry's input, and the registry's field
// error codes (shared with the CLI) as localized messages under each field.
import type { ClientLinks } from '../clients/client-links.ts';
import type { ApplicationInput, RegisteredClient } from '../clients/registry.ts';
import { APP_TYPES, type FieldError } from '../clients/validate.ts';
import { REQUIRED_SCOPES, SCOPES } from '../policy/scopes.ts';
import { isPortalKey, type PortalKey, type PortalTranslate } from './portal-messages.ts';

export interface AppFormValues {
  name: string;
  description: string;
  appType: string;
  /** The textarea as typed: one URI per line. */
  redirectUris: string;
  scopes: string[];
  /** The consent screen's links (https URLs); empty: none. */
  logoUri: string;
  policyUri: string;
  tosUri: string;
  /** The FedCM origins textarea as typed: one origin per line (src/clients/fedcm-origins.ts). */
  fedcmOrigins: string;
}

export type FieldMessages = Partial<Record<FieldError['field'], string[]>>;

export const EMPTY_FORM: AppFormValues = {
  name: '',
  description: '',
  appType: 'web',
  redirectUris: '',
  // profile too: the libraries' quick starts ask for `openid email profile`, refused without it.
  scopes: [...REQUIRED_SCOPES, 'profile'],
  logoUri: '',
  policyUri: '',
  tosUri: '',
  fedcmOrigins: '',
};

export function readAppForm(body: URLSearchParams): AppFormValues {
  return {
    name: body.get('name') ?? '',
    description: body.get('description') ?? '',
    appType: body.get('app_type') ?? '',
    redirectUris: body.get('redirect_uris') ?? '',
    scopes: [...new Set(body.getAll('scope'))],
    logoUri: body.get('logo_uri') ?? '',
    policyUri: body.get('policy_uri') ?? '',
    tosUri: body.get('tos_uri') ?? '',
    fedcmOrigins: body.get('fedcm_origins') ?? '',
  };
}

export function formOf(client: RegisteredClient): AppFormValues {
  return {
    name: client.name,
    description: client.description,
    appType: client.appType,
    redirectUris: client.redirectUris.join('\n'),
    scopes: client.scopes,
    logoUri: client.logoUri ?? '',
    policyUri: client.policyUri ?? '',
    tosUri: client.tosUri ?? '',
    fedcmOrigins: client.fedcmOrigins.join('\n'),
  };
}

export function toClientInput(form: AppFormValues): ApplicationInput & ClientLinks {
  // A server application signs no user in: the form hides its user-facing fields, and what they still
  // send (the required scopes always are) is not its own.
  const signsUsersIn = form.appType !== 'server';
  const lines = (text: string) =>
    text
      .split(/\r?\n/)
      .map((line) => line.trim())
      .filter(Boolean);
  return {
    name: form.name,
    description: form.description,
    appType: form.appType,
    redirectUris: signsUsersIn
      ? form.redirectUris
          .split(/\r?\n/)
          .map((line) => line.trim())
          .filter(Boolean)
      : [],
    scopes: signsUsersIn ? form.scopes : [],
    // An emptied field removes the link.
    logoUri: form.logoUri.trim() || null,
    policyUri: form.policyUri.trim() || null,
    tosUri: form.tosUri.trim() || null,
    // Web pages only: a mobile app has no web origin of its own (docs/guides/fedcm.md).
    fedcmOrigins: form.appType === 'web' || form.appType === 'spa' ? lines(form.fedcmOrigins) : [],
  };
}

export function fieldMessages(errors: FieldError[], t: PortalTranslate): FieldMessages {
  const messages: FieldMessages = {};
  for (const error of errors) {
    const key = messageKey(error);
    // A non-canonical redirect URI's message shows the form to write (`{canonical}`).
    const vars = {
      ...(error.value === undefined ? {} : { value: error.value }),
      ...(error.canonical ? { canonical: error.canonical } : {}),
    };
    (messages[error.field] ??= []).push(t(key, Object.keys(vars).length ? vars : undefined));
  }
  return messages;
}

/** The most specific message: per field and code, then per code, then a generic one. */
function messageKey(error: FieldError): PortalKey {
  for (const candidate of [`error.${error.field}.${error.code}`, `error.${error.code}`]) {
    if (isPortalKey(candidate)) return candidate;
  }
  return 'error.invalid';
}

/** What the form's selects and checkboxes offer. */
export const FORM_CHOICES = {
  appTypes: APP_TYPES,
  scopes: SCOPES.map((name) => ({ name, required: REQUIRED_SCOPES.includes(name) })),
};
