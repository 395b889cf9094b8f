// What leads on from an error page. No page the service shows may be a dead end: each reason names the
// ways that fit it, the request decides which of them apply (a retry only for a GET, the sign-in again
// and the way back to the application only inside an interaction), and the account page is there when
// nothing else is.
//
// The way back to an application is the interaction's own "cancel" route: the engine, which matched the
// redirect URI when the request came in, sends the application its `access_denied`, as the sign-in page's
// cancel link does. The page never links to a redirect URI itself: outside an interaction (an unknown
// application, an unregistered return address, an error held back from an application no operator has
// verified, src/provider/error-redirects.ts) there is no address it may safely lead to.
import type { Translate } from '../i18n/index.ts';

export type WayKind = 'application' | 'restart' | 'retry' | 'newResetLink' | 'https' | 'signIn' | 'account';

/** A way on as the page shows it. */
export interface WayOn {
  label: string;
  href: string;
}

/** What of the request decides which ways apply; any Koa context has it. */
export interface WayRequest {
  method?: string;
  path?: string;
  url?: string;
  host?: string;
  mountPath?: string;
}

const ACCOUNT_PATH = '/account';
const FORGOT_PATH = '/password/forgot';
const INTERACTION = /^\/interaction\/([\w-]+)(?:\/|$)/;

/** The ways of `kinds` that apply to this request, in order, without two to the same place; never none. */
export function waysOn(kinds: readonly WayKind[], request: WayRequest, t: Translate): WayOn[] {
  const base = request.mountPath ?? '';
  const ways: WayOn[] = [];
  for (const kind of kinds) {
    const way = resolve(kind, request, base, t);
    if (way && !ways.some((w) => w.href === way.href)) ways.push(way);
  }
  return ways.length ? ways : [{ label: t('account.title'), href: base + ACCOUNT_PATH }];
}

function resolve(kind: WayKind, request: WayRequest, base: string, t: Translate): WayOn | undefined {
  const isGet = request.method === 'GET' || request.method === 'HEAD';
  const uid = request.path ? INTERACTION.exec(request.path)?.[1] : undefined;
  switch (kind) {
    case 'account':
      return { label: t('account.title'), href: base + ACCOUNT_PATH };
    case 'signIn':
      // Signing in on the account page starts a session for applications too.
      return { label: t('error.signInRequired.link'), href: base + ACCOUNT_PATH };
    case 'newResetLink':
      // The plain form: nothing of the old link (nor whose it was) is carried over.
      return { label: t('error.way.newResetLink'), href: base + FORGOT_PATH };
    case 'retry':
      // Only a GET can be replayed by a link; the URL is the one already in the address bar.
      return isGet && request.url ? { label: t('error.way.retry'), href: base + request.url } : undefined;
    case 'restart':
      // The interaction's own page shows its current step again (the sign-in form, the consent).
      return uid ? { label: t('error.way.restart'), href: `${base}/interaction/${uid}` } : undefined;
    case 'application':
      return uid ? { label: t('error.way.application'), href: `${base}/interaction/${uid}/abort` } : undefined;
    case 'https':
      return isGet && request.host && request.url
        ? { label: t('error.way.https'), href: `https://${request.host}${base}${request.url}` }
        : undefined;
  }
}
