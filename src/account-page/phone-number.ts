// /account/phone: the account's phone number. Adding one (or replacing it) asks for the current password
// in the same form: a session, even one a phone code opened, is not enough, since a phone code alone must
// never change the number (a stolen SIM would otherwise keep the account). The code then proves the
// number; once it is entered the number is the account's, the e-mail address is told at once, and the
// number signs in alone only after its cooling-off period. Removing it asks for the password too.
import type Router from '@koa/router';
import type Koa from 'koa';
import { confirmCurrentPassword } from '../accounts/current-password.ts';
import type { Account } from '../accounts/store.ts';
import { translator, type Locale, type MessageKey, type MessageVars } from '../i18n/index.ts';
import { securityEvent } from '../log/security-log.ts';
import { logMailFailure } from '../mail/account-mail.ts';
import { mailAfterAnswer } from '../mail/after-answer.ts';
import { composePhoneAddedNotice } from '../mail/phone-notice.ts';
import { csrfToken } from '../pages/anti-forgery.ts';
import { localeFor } from '../pages/language.ts';
import { renderPage } from '../pages/render.ts';
import type { PhoneService } from '../phone/phone-service.ts';
import { countryChoices, displayNumber, parsePhoneNumber } from '../phone/phone-number.ts';
import { addHolder } from '../phone/phone-sign-in.ts';
import type { AccountPageDeps } from './account-deps.ts';
import { backToAccount, readAccountForm, signedInAccount } from './account-sign-in.ts';

type PhoneDeps = AccountPageDeps & { phone: PhoneService };

const NOTICES: Readonly<Record<string, MessageKey>> = { added: 'account.phone.added', removed: 'account.phone.removed' };

interface PhoneState {
  locale: Locale;
  status?: number;
  error?: { key: MessageKey; vars?: MessageVars };
  typed?: { number?: string; country?: string };
}

const phonePage = (ctx: Koa.Context, query = ''): void => {
  ctx.status = 303;
  ctx.redirect(`${ctx.mountPath ?? ''}/account/phone${query}`);
};

async function renderPhonePage(ctx: Koa.Context, deps: PhoneDeps, account: Account, state: PhoneState): Promise<void> {
  const t = translator(state.locale);
  const { config } = deps.phone;
  const current = await deps.phone.numbers.numberOf(account.id);
  const usableFrom = current && new Date(current.verifiedAt.getTime() + config.coolingOffHours * 3600 * 1000);
  const pending = await deps.phone.signIn.pendingNumber(addHolder(account.id));
  const when = new Intl.DateTimeFormat(state.locale === 'fr' ? 'fr-FR' : 'en-GB', {
    dateStyle: 'long',
    timeStyle: 'short',
    timeZone: 'UTC',
  });
  const notice = typeof ctx.query.notice === 'string' ? NOTICES[ctx.query.notice] : undefined;
  await renderPage(
    ctx,
    'account-phone',
    {
      csrf: csrfToken(ctx, deps.config.issuer),
      current: current ? displayNumber(current.phoneNumber) : null,
      coolingOffUntil: usableFrom && usableFrom.getTime() > Date.now() ? when.format(usableFrom) : null,
      pending: pending ? displayNumber(pending.phoneNumber) : null,
      countries: countryChoices(config.allowedCountryCodes, state.locale),
      country: state.typed?.country ?? config.allowedCountryCodes[0],
      number: state.typed?.number ?? '',
      notice: notice ? t(notice) : null,
      error: state.error ? t(state.error.key, state.error.vars) : null,
    },
    { locale: state.locale, status: state.status, returnTo: '/account/phone', scripts: ['show-password.js'] },
  );
}

/** GET /account/phone */
export function showPhoneNumber(deps: PhoneDeps): Koa.Middleware {
  return async function showPhoneNumberRoute(ctx) {
    const account = await signedInAccount(ctx, deps);
    if (!account) return backToAccount(ctx);
    await renderPhonePage(ctx, deps, account, { locale: localeFor(ctx, deps.config) });
  };
}

/** POST /account/phone: the number and the current password; a code is sent to the number. */
export function addPhoneNumber(deps: PhoneDeps): Koa.Middleware {
  return async function addPhoneNumberRoute(ctx) {
    const body = await readAccountForm(ctx, deps);
    const locale = localeFor(ctx, deps.config);
    const account = await signedInAccount(ctx, deps);
    if (!account) return backToAccount(ctx);
    const typed = { number: (body.get('number') ?? '').trim(), country: body.get('country') ?? '' };
    const refuse = (key: MessageKey, status = 400, vars?: MessageVars) =>
      renderPhonePage(ctx, deps, account, { locale, status, typed, error: { key, vars } });
    const parsed = parsePhoneNumber(typed.number, typed.country, deps.phone.config.allowedCountryCodes);
    if (!parsed.ok) return refuse(parsed.reason === 'country' ? 'phone.error.country' : 'phone.error.invalid');
    if (!(await passwordConfirmed(ctx, deps, account, body.get('current_password') ?? '', refuse))) return;
    if ((await deps.phone.numbers.numberOf(account.id))?.phoneNumber === parsed.e164) return refuse('account.phone.same');
    const outcome = await deps.phone.signIn.requestAddCode(account, parsed.e164, ctx.ip, locale);
    if (!outcome.ok && outcome.reason === 'tooMany') {
      ctx.set('Retry-After', String(outcome.retryAfterSeconds));
      return refuse('phone.error.tooMany', 429, { minutes: Math.ceil(outcome.retryAfterSeconds / 60) });
    }
    if (!outcome.ok) return refuse(outcome.reason === 'budget' ? 'phone.error.budget' : 'phone.error.gateway', 503);
    phonePage(ctx);
  };
}

/** POST /account/phone/verify: the code; the number becomes the account's, and the e-mail address is told. */
export function verifyPhoneNumber(deps: PhoneDeps): Koa.Middleware {
  return async function verifyPhoneNumberRoute(ctx) {
    const body = await readAccountForm(ctx, deps);
    const locale = localeFor(ctx, deps.config);
    const account = await signedInAccount(ctx, deps);
    if (!account) return backToAccount(ctx);
    const checked = await deps.phone.signIn.checkAddCode(account.id, body.get('code') ?? '');
    if (!checked.ok) {
      const error =
        checked.reason === 'wrong'
          ? { key: 'phone.error.wrong' as const, vars: { count: checked.triesLeft } }
          : { key: checked.reason === 'exhausted' ? ('phone.error.exhausted' as const) : ('phone.error.expired' as const) };
      return renderPhonePage(ctx, deps, account, { locale, status: 400, error });
    }
    // Taken meanwhile by another account: said as an expired code, which reveals nothing.
    if (!(await deps.phone.numbers.setVerified(account.id, checked.phoneNumber))) {
      return renderPhonePage(ctx, deps, account, { locale, status: 400, error: { key: 'phone.error.expired' } });
    }
    securityEvent('phone.added', { source: 'account_page', account_id: account.id });
    const usableFrom = new Date(Date.now() + deps.phone.config.coolingOffHours * 3600 * 1000);
    const { issuer } = deps.config;
    const links = { account: `${issuer}/account/phone`, reset: `${issuer}/password/forgot` };
    mailAfterAnswer(ctx, () =>
      deps.mail
        .sendComposed(locale, (brand) =>
          composePhoneAddedNotice(locale, account, displayNumber(checked.phoneNumber), usableFrom, links, brand),
        )
        .catch(logMailFailure),
    );
    phonePage(ctx, '?notice=added');
  };
}

/** POST /account/phone/remove: with the current password. */
export function removePhoneNumber(deps: PhoneDeps): Koa.Middleware {
  return async function removePhoneNumberRoute(ctx) {
    const body = await readAccountForm(ctx, deps);
    const locale = localeFor(ctx, deps.config);
    const account = await signedInAccount(ctx, deps);
    if (!account) return backToAccount(ctx);
    const refuse = (key: MessageKey, status = 400, vars?: MessageVars) =>
      renderPhonePage(ctx, deps, account, { locale, status, error: { key, vars } });
    if (!(await passwordConfirmed(ctx, deps, account, body.get('current_password') ?? '', refuse))) return;
    await deps.phone.numbers.remove(account.id);
    securityEvent('phone.removed', { source: 'account_page', account_id: account.id });
    phonePage(ctx, '?notice=removed');
  };
}

async function passwordConfirmed(
  ctx: Koa.Context,
  deps: PhoneDeps,
  account: Account,
  password: string,
  refuse: (key: MessageKey, status?: number, vars?: MessageVars) => Promise<void>,
): Promise<boolean> {
  const check = await confirmCurrentPassword(deps, account, password, ctx.ip, 'account_page');
  if (check.ok) return true;
  if (check.reason === 'tooMany') {
    ctx.set('Retry-After', String(check.retryAfterSeconds));
    await refuse('login.error.tooMany', 429, { minutes: Math.ceil(check.retryAfterSeconds / 60) });
  } else {
    await refuse('account.phone.wrongPassword');
  }
  return false;
}

/** The routes, on the account page's router. */
export function phoneNumberRoutes(router: Router, page: Koa.Middleware[], deps: PhoneDeps): void {
  router.get('/account/phone', ...page, showPhoneNumber(deps));
  router.post('/account/phone', ...page, addPhoneNumber(deps));
  router.post('/account/phone/verify', ...page, verifyPhoneNumber(deps));
  router.post('/account/phone/remove', ...page, removePhoneNumber(deps));
}
