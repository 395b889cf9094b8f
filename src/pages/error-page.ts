// The localized error page, shared by every face and the engine's renderError hook. It names what went
// wrong in plain words and never shows a stack trace or an internal message.
import { errors } from 'oidc-provider';
import type { Locale, MessageKey } from '../i18n/index.ts';
import { renderPage } from './render.ts';

export type ErrorReason =
  | 'generic'
  | 'sessionExpired'
  | 'unknownClient'
  | 'redirectUri'
  | 'invalidScope'
  | 'invalidRequest'
  | 'accessDenied'
  | 'signInRequired'
  | 'server'
  | 'unavailable'
  | 'notFound'
  | 'formExpired'
  | 'invalidLink'
  | 'accountDisabled'
  | 'badInput'
  | 'methodNotAllowed'
  | 'httpsRequired'
  | 'clientMisconfigured';

/** A link that leads on from the page, under the service's own address. */
interface WayOn {
  path: string;
  label: MessageKey;
}

const COPY: Readonly<Record<ErrorReason, { title: MessageKey; message: MessageKey; wayOn?: WayOn }>> = {
  generic: { title: 'error.title', message: 'error.message' },
  sessionExpired: { title: 'error.sessionExpired.title', message: 'error.sessionExpired.message' },
  unknownClient: { title: 'error.unknownClient.title', message: 'error.unknownClient.message' },
  redirectUri: { title: 'error.redirectUri.title', message: 'error.redirectUri.message' },
  invalidScope: { title: 'error.invalidScope.title', message: 'error.invalidScope.message' },
  invalidRequest: { title: 'error.invalidRequest.title', message: 'error.invalidRequest.message' },
  accessDenied: { title: 'error.accessDenied.title', message: 'error.accessDenied.message' },
  // Signing in on the account page starts a session for applications too: back at the application,
  // the same request then goes through.
  signInRequired: {
    title: 'error.signInRequired.title',
    message: 'error.signInRequired.message',
    wayOn: { path: '/account', label: 'error.signInRequired.link' },
  },
  server: { title: 'error.server.title', message: 'error.server.message' },
  unavailable: { title: 'error.server.title', message: 'error.unavailable.message' },
  notFound: { title: 'error.notFound.title', message: 'error.notFound.message' },
  formExpired: { title: 'error.formExpired.title', message: 'error.formExpired.message' },
  invalidLink: { title: 'link.invalid.title', message: 'link.invalid.message' },
  accountDisabled: { title: 'error.accountDisabled.title', message: 'error.accountDisabled.message' },
  badInput: { title: 'error.badInput.title', message: 'error.badInput.message' },
  methodNotAllowed: { title: 'error.methodNotAllowed.title', message: 'error.methodNotAllowed.message' },
  httpsRequired: { title: 'error.httpsRequired.title', message: 'error.httpsRequired.message' },
  clientMisconfigured: { title: 'error.clientMisconfigured.title', message: 'error.clientMisconfigured.message' },
};

const BY_OAUTH_CODE: Readonly<Record<string, ErrorReason>> = {
  invalid_client: 'unknownClient',
  invalid_redirect_uri: 'redirectUri',
  invalid_scope: 'invalidScope',
  invalid_request: 'invalidRequest',
  access_denied: 'accessDenied',
  // `prompt=none` for a visitor who is not signed in: shown only when held back from an application
  // no operator has verified (src/provider/error-redirects.ts).
  login_required: 'signInRequired',
  interaction_required: 'signInRequired',
  consent_required: 'signInRequired',
  account_selection_required: 'signInRequired',
  server_error: 'server',
};

/** Seconds a client should wait before retrying after a storage outage; a reconnect takes about that. */
export const UNAVAILABLE_RETRY_SECONDS = 5;
/** The RFC 6749 §4.1.2.1 code of an outage, shown in small print on its page. */
export const UNAVAILABLE_CODE = 'temporarily_unavailable';

/** What to tell the user about an OAuth error code (and the error itself, when there is one). */
export function reasonForOAuthError(code: string | undefined, error?: unknown): ErrorReason {
  // An expired interaction or a lost cookie is an invalid_request to the engine, but the user can fix it.
  if (error instanceof errors.SessionNotFound) return 'sessionExpired';
  return (code && Object.hasOwn(BY_OAUTH_CODE, code) && BY_OAUTH_CODE[code]) || 'generic';
}

export interface ErrorPage {
  reason: ErrorReason;
  status: number;
  locale: Locale;
  /** The OAuth error code, shown in small print to help support; never a description or a stack. */
  code?: string;
  returnTo?: string;
}

export async function renderErrorPage(ctx: Parameters<typeof renderPage>[0], page: ErrorPage): Promise<void> {
  const copy = COPY[page.reason];
  await renderPage(
    ctx,
    'error',
    { titleKey: copy.title, messageKey: copy.message, code: page.code ?? null, wayOn: copy.wayOn ?? null },
    { status: page.status, locale: page.locale, returnTo: page.returnTo },
  );
}

/** The localized "try again in a moment" page of a storage outage: status 503 and Retry-After. */
export async function renderUnavailablePage(ctx: Parameters<typeof renderPage>[0], locale: Locale): Promise<void> {
  await renderErrorPage(ctx, { reason: 'unavailable', status: 503, locale, code: UNAVAILABLE_CODE });
  ctx.set('Retry-After', String(UNAVAILABLE_RETRY_SECONDS));
}
