// The localized error page, shared by every face and the engine's renderError hook. It names what went
// wrong in plain words, never shows a stack trace or an internal message, and always offers a way on
// (ways-on.ts): a new link, the sign-in again, back to the application, a retry, or the account page.
import { errors } from 'oidc-provider';
import { translator, type Locale, type MessageKey } from '../i18n/index.ts';
import { renderPage } from './render.ts';
import { waysOn, type WayKind, type WayRequest } from './ways-on.ts';

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
  | 'resetLinkInvalid'
  | 'accountDisabled'
  | 'badInput'
  | 'methodNotAllowed'
  | 'httpsRequired'
  | 'clientMisconfigured';

interface Copy {
  title: MessageKey;
  message: MessageKey;
  /** The ways on, best first; those that do not apply to the request are left out (ways-on.ts). */
  ways: readonly WayKind[];
}

// The application and a new start of the sign-in are offered inside an interaction only (ways-on.ts):
// an unknown client, an unregistered return address or an error held back from an unverified
// application get the account page.
const COPY: Readonly<Record<ErrorReason, Copy>> = {
  generic: { title: 'error.title', message: 'error.message', ways: ['restart', 'application', 'account'] },
  // The interaction is gone: nothing of it to go back to.
  sessionExpired: { title: 'error.sessionExpired.title', message: 'error.sessionExpired.message', ways: ['account'] },
  unknownClient: { title: 'error.unknownClient.title', message: 'error.unknownClient.message', ways: ['account'] },
  redirectUri: { title: 'error.redirectUri.title', message: 'error.redirectUri.message', ways: ['account'] },
  invalidScope: { title: 'error.invalidScope.title', message: 'error.invalidScope.message', ways: ['application', 'account'] },
  invalidRequest: { title: 'error.invalidRequest.title', message: 'error.invalidRequest.message', ways: ['application', 'account'] },
  accessDenied: { title: 'error.accessDenied.title', message: 'error.accessDenied.message', ways: ['application', 'account'] },
  // Signing in on the account page starts a session for applications too: back at the application,
  // the same request then goes through.
  signInRequired: { title: 'error.signInRequired.title', message: 'error.signInRequired.message', ways: ['signIn'] },
  server: { title: 'error.server.title', message: 'error.server.message', ways: ['retry', 'restart', 'application', 'account'] },
  unavailable: { title: 'error.server.title', message: 'error.unavailable.message', ways: ['retry', 'restart', 'account'] },
  notFound: { title: 'error.notFound.title', message: 'error.notFound.message', ways: ['account'] },
  formExpired: { title: 'error.formExpired.title', message: 'error.formExpired.message', ways: ['restart', 'application', 'account'] },
  invalidLink: { title: 'link.invalid.title', message: 'link.invalid.message', ways: ['account'] },
  resetLinkInvalid: { title: 'link.invalid.title', message: 'error.resetLink.message', ways: ['newResetLink', 'account'] },
  accountDisabled: { title: 'error.accountDisabled.title', message: 'error.accountDisabled.message', ways: ['application', 'account'] },
  badInput: { title: 'error.badInput.title', message: 'error.badInput.message', ways: ['restart', 'account'] },
  methodNotAllowed: { title: 'error.methodNotAllowed.title', message: 'error.methodNotAllowed.message', ways: ['account'] },
  httpsRequired: { title: 'error.httpsRequired.title', message: 'error.httpsRequired.message', ways: ['https'] },
  clientMisconfigured: { title: 'error.clientMisconfigured.title', message: 'error.clientMisconfigured.message', ways: ['account'] },
};

/** Every reason a page may show, each with its ways on. */
export const ERROR_REASONS = Object.keys(COPY) as readonly ErrorReason[];

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
  /** A sentence for the application's developer that the service wrote itself (never an engine or internal message). */
  developerNote?: string;
  returnTo?: string;
}

/** Any context a page renders into (ours, a router's, the engine's), with what decides the ways on. */
export type ErrorPageContext = Parameters<typeof renderPage>[0] & WayRequest;

export async function renderErrorPage(ctx: ErrorPageContext, page: ErrorPage): Promise<void> {
  const copy = COPY[page.reason];
  const ways = waysOn(copy.ways, ctx, translator(page.locale));
  await renderPage(
    ctx,
    'error',
    { titleKey: copy.title, messageKey: copy.message, code: page.code ?? null, developerNote: page.developerNote ?? null, ways },
    { status: page.status, locale: page.locale, returnTo: page.returnTo },
  );
}

/** The localized "try again in a moment" page of a storage outage: status 503 and Retry-After. */
export async function renderUnavailablePage(ctx: ErrorPageContext, locale: Locale): Promise<void> {
  await renderErrorPage(ctx, { reason: 'unavailable', status: 503, locale, code: UNAVAILABLE_CODE });
  ctx.set('Retry-After', String(UNAVAILABLE_RETRY_SECONDS));
}
