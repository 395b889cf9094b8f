// Sign-in with a phone number and a one-time code: "Recevoir un code par SMS" on the login page leads
// here. GET/POST /interaction/:uid/phone asks for the number and sends the code; GET/POST
// /interaction/:uid/phone/code takes it. The code page reads the same whether or not the number is an
// account's (src/phone/phone-sign-in.ts sends nothing then). A right code signs in through the same
// `finishStep` as the password, with the RFC 8176 `amr` of the channel (`sms`, or `otp` for WhatsApp),
// and counts in the same sign-in limits and log. Every refusal is a page with a way on: another code, or
// the password.
import type Router from '@koa/router';
import type { RouterContext, RouterMiddleware } from '@koa/router';
import type Koa from 'koa';
import { accountLimitKey } from '../src/accounts/rate-limits.ts';
import { t, type MessageKey, type MessageVars } from '../src/i18n/index.ts';
import { securityEvent } from '../src/log/security-log.ts';
import { readFormBody } from '../src/pages/form-body.ts';
import { PageError } from '../src/pages/page-errors.ts';
import { renderPage } from '../src/pages/render.ts';
import type { PhoneService } from '../src/phone/phone-service.ts';
import { countryChoices, maskedNumber, parsePhoneNumber } from '../src/phone/phone-number.ts';
import { signInHolder, type CodeRequestOutcome } from '../src/phone/phone-sign-in.ts';
import type { InteractionDeps } from './interaction-deps.ts';
import { finishStep, loadInteraction, pageOptions, type LoadedInteraction } from './interaction.ts';

type PhoneDeps = InteractionDeps & { phone: PhoneService };

interface PageMessage {
  key: MessageKey;
  vars?: MessageVars;
}

const REQUEST_ERRORS: Record<Exclude<CodeRequestOutcome, { ok: true }>['reason'], MessageKey> = {
  tooMany: 'phone.error.tooMany',
  budget: 'phone.error.budget',
  gateway: 'phone.error.gateway',
};

async function loginStep(ctx: RouterContext, deps: PhoneDeps): Promise<LoadedInteraction> {
  const interaction = await loadInteraction(ctx, deps);
  if (interaction.details.prompt.name !== 'login') throw new PageError(400, 'generic');
  if (!interaction.client) throw new PageError(400, 'unknownClient');
  return interaction;
}

async function showNumberForm(
  ctx: RouterContext,
  deps: PhoneDeps,
  interaction: LoadedInteraction,
  form: { number?: string; country?: string; error?: PageMessage; status?: number } = {},
): Promise<void> {
  const { config } = deps.phone;
  await renderPage(
    ctx,
    'phone-login',
    {
      uid: interaction.uid,
      channel: deps.phone.signIn.channel,
      countries: countryChoices(config.allowedCountryCodes, interaction.locale),
      country: form.country ?? config.allowedCountryCodes[0],
      number: form.number ?? '',
      error: form.error ? t(interaction.locale, form.error.key, form.error.vars) : null,
    },
    pageOptions(interaction, form.status),
  );
}

/** GET /interaction/:uid/phone */
export function showPhoneLogin(deps: PhoneDeps): RouterMiddleware {
  return async function showPhoneLoginRoute(ctx) {
    await showNumberForm(ctx, deps, await loginStep(ctx, deps));
  };
}

/** POST /interaction/:uid/phone: the number; a code is sent (or not: see above), then the code page. */
export function requestPhoneCode(deps: PhoneDeps): RouterMiddleware {
  return async function requestPhoneCodeRoute(ctx) {
    const interaction = await loginStep(ctx, deps);
    const body = await readFormBody(ctx);
    const number = (body.get('number') ?? '').trim();
    const country = body.get('country') ?? '';
    const form = { number, country };
    if (!number) return showNumberForm(ctx, deps, interaction, { ...form, error: { key: 'phone.error.missing' }, status: 400 });
    const parsed = parsePhoneNumber(number, country, deps.phone.config.allowedCountryCodes);
    if (!parsed.ok) {
      const key = parsed.reason === 'country' ? 'phone.error.country' : 'phone.error.invalid';
      return showNumberForm(ctx, deps, interaction, { ...form, error: { key }, status: 400 });
    }
    const outcome = await deps.phone.signIn.requestSignInCode(interaction.uid, parsed.e164, ctx.ip, interaction.locale);
    if (!outcome.ok) {
      const minutes = outcome.reason === 'tooMany' ? Math.ceil(outcome.retryAfterSeconds / 60) : undefined;
      if (outcome.reason === 'tooMany') ctx.set('Retry-After', String(outcome.retryAfterSeconds));
      const status = outcome.reason === 'tooMany' ? 429 : 503;
      return showNumberForm(ctx, deps, interaction, {
        ...form,
        error: { key: REQUEST_ERRORS[outcome.reason], vars: minutes === undefined ? undefined : { minutes } },
        status,
      });
    }
    ctx.status = 303;
    ctx.redirect(`${ctx.mountPath ?? ''}/interaction/${interaction.uid}/phone/code`);
  };
}

async function showCodeForm(
  ctx: RouterContext,
  deps: PhoneDeps,
  interaction: LoadedInteraction,
  form: { error?: PageMessage; status?: number; remember?: boolean; closed?: boolean } = {},
): Promise<void> {
  const pending = await deps.phone.signIn.pendingNumber(signInHolder(interaction.uid));
  if (!pending && !form.error) {
    ctx.status = 303;
    return ctx.redirect(`${ctx.mountPath ?? ''}/interaction/${interaction.uid}/phone`);
  }
  await renderPage(
    ctx,
    'phone-code',
    {
      uid: interaction.uid,
      channel: pending?.channel ?? deps.phone.signIn.channel,
      number: pending ? maskedNumber(pending.phoneNumber) : null,
      // No code left to try: the page offers a new one instead of the field.
      canTry: !!pending && !form.closed,
      error: form.error ? t(interaction.locale, form.error.key, form.error.vars) : null,
      remember: form.remember === true,
    },
    pageOptions(interaction, form.status),
  );
}

/** GET /interaction/:uid/phone/code */
export function showPhoneCode(deps: PhoneDeps): RouterMiddleware {
  return async function showPhoneCodeRoute(ctx) {
    await showCodeForm(ctx, deps, await loginStep(ctx, deps));
  };
}

/** POST /interaction/:uid/phone/code: the code typed; a sign-in when it is right and the number may sign in. */
export function submitPhoneCode(deps: PhoneDeps): RouterMiddleware {
  return async function submitPhoneCodeRoute(ctx) {
    const interaction = await loginStep(ctx, deps);
    const body = await readFormBody(ctx);
    const remember = body.get('remember') === 'yes';
    const code = body.get('code') ?? '';
    const holder = signInHolder(interaction.uid);
    const pending = await deps.phone.signIn.pendingNumber(holder);
    // The sign-in limits of the password count code tries too, per IP and per account (or number).
    const accountKey = pending?.accountId ? accountLimitKey(pending.accountId) : `phone:${pending?.phoneNumber ?? holder}`;
    const [accountWait, ipWait] = await Promise.all([
      deps.limits.loginPerAccount.consume(accountKey),
      deps.limits.loginPerIp.consume(ctx.ip),
    ]);
    const wait = Math.max(accountWait, ipWait);
    const fields = { source: 'interaction' as const, account_id: pending?.accountId ?? undefined };
    if (wait > 0) {
      securityEvent('sign_in.throttled', { ...fields, limit: 'login', retry_after: wait });
      ctx.set('Retry-After', String(wait));
      const error = { key: 'login.error.tooMany' as const, vars: { minutes: Math.ceil(wait / 60) } };
      return showCodeForm(ctx, deps, interaction, { error, status: 429, remember, closed: true });
    }
    const checked = await deps.phone.signIn.checkSignInCode(interaction.uid, code);
    if (!checked.ok) {
      securityEvent('sign_in.failure', { ...fields, reason: `phone_code_${checked.reason}` });
      const error = refusal(checked, deps.phone.config.coolingOffHours);
      return showCodeForm(ctx, deps, interaction, { error, status: 400, remember, closed: checked.reason !== 'wrong' });
    }
    const amr = checked.channel === 'sms' ? 'sms' : 'otp';
    await Promise.all([deps.limits.loginPerAccount.reset(accountLimitKey(checked.accountId)), deps.limits.loginPerIp.refund(ctx.ip)]);
    securityEvent('sign_in.success', { source: 'interaction', account_id: checked.accountId, method: amr });
    await finishStep(ctx, interaction, { login: { accountId: checked.accountId, amr: [amr], remember } });
  };
}

function refusal(checked: { reason: string; triesLeft?: number }, coolingOffHours: number): PageMessage {
  switch (checked.reason) {
    case 'wrong':
      return { key: 'phone.error.wrong', vars: { count: checked.triesLeft ?? 0 } };
    case 'exhausted':
      return { key: 'phone.error.exhausted' };
    case 'coolingOff':
      return { key: 'phone.error.coolingOff', vars: { hours: coolingOffHours } };
    case 'simSwap':
      return { key: 'phone.error.simSwap' };
    default:
      // Expired, used, or a number on no account: one message, which reveals nothing.
      return { key: 'phone.error.expired' };
  }
}

/** The four routes, on the interaction router, behind the same page middleware as the others. */
export function phoneLoginRoutes(router: Router, page: Koa.Middleware[], deps: PhoneDeps): void {
  router.get('/interaction/:uid/phone', ...page, showPhoneLogin(deps));
  router.post('/interaction/:uid/phone', ...page, requestPhoneCode(deps));
  router.get('/interaction/:uid/phone/code', ...page, showPhoneCode(deps));
  router.post('/interaction/:uid/phone/code', ...page, submitPhoneCode(deps));
}
