// Codes sent to a phone, from the request to the check, with every guard of the feature in one place:
// the country allow-list, the limits per number, IP and range, the daily budget, the accounts a code may
// go to, the gateway's failure, and at the check the cooling-off period of a new number and the
// operator's SIM-swap check. The pages (interactions/phone-login.ts, src/account-page/phone-number.ts)
// only translate the outcomes into pages.
import { AccountDisabledError } from '../accounts/login-guard.ts';
import type { Account } from '../accounts/store.ts';
import type { PhoneConfig } from '../config/phone-schema.ts';
import type { Locale } from '../i18n/index.ts';
import { securityEvent } from '../log/security-log.ts';
import type { MessageBudget } from './budget.ts';
import { PhoneCodeStore, type CodeChannel, type IssuedCode } from './code-store.ts';
import { codeText } from './code-text.ts';
import { inCoolingOff } from './cooling-off.ts';
import { GatewayError, type CodeGateway } from './gateways/gateway.ts';
import { takePhoneLimits, type PhoneLimitName, type PhoneLimits } from './limits.ts';
import type { PhoneNumberStore } from './phone-numbers.ts';
import type { SimSwapCheck } from './sim-swap.ts';

export type CodeRequestOutcome =
  | { ok: true; channel: CodeChannel }
  | { ok: false; reason: 'tooMany'; limit: PhoneLimitName; retryAfterSeconds: number }
  | { ok: false; reason: 'budget' | 'gateway' };

export type SignInCheck =
  | { ok: true; accountId: string; channel: CodeChannel }
  | { ok: false; reason: 'wrong'; triesLeft: number }
  | { ok: false; reason: 'expired' | 'used' | 'exhausted' | 'none' | 'coolingOff' | 'simSwap' };

export interface PhoneSignInDeps {
  config: PhoneConfig & { issuer: string; serviceName?: string };
  codes: PhoneCodeStore;
  numbers: PhoneNumberStore;
  limits: PhoneLimits;
  budget: MessageBudget;
  gateway: CodeGateway;
  simSwap: SimSwapCheck;
  now?: () => Date;
}

/** Where a code is held: the sign-in in progress, or the account adding a number. */
export const signInHolder = (interactionUid: string): string => `sign_in:${interactionUid}`;
export const addHolder = (accountId: string): string => `add:${accountId}`;

export class PhoneSignIn {
  /** Recent gateway answer times, so that a number on no account answers in about the same time. */
  private readonly sendTimes: number[] = [];

  constructor(private readonly deps: PhoneSignInDeps) {}

  get channel(): CodeChannel {
    return this.deps.gateway.channel;
  }

  /**
   * A sign-in code for `e164` (already parsed and allowed). The answer is the same whether or not an
   * account holds the number: for none, nothing is sent and the code page waits as long as a send.
   */
  async requestSignInCode(interactionUid: string, e164: string, ip: string, locale: Locale): Promise<CodeRequestOutcome> {
    const limited = await takePhoneLimits(this.deps.limits, e164, ip);
    if (limited) {
      securityEvent('phone.throttled', { source: 'interaction', limit: `phone_${limited.limit}`, retry_after: limited.retryAfterSeconds });
      return { ok: false, reason: 'tooMany', ...limited };
    }
    // Read for everyone, so that a spent budget answers alike for a number on an account and one on none.
    if (await this.deps.budget.spent()) return this.budgetSpent('interaction');
    const holder = await this.deps.numbers.findByNumber(e164);
    const code = { holder: signInHolder(interactionUid), phoneNumber: e164, accountId: holder?.accountId ?? null, channel: this.channel };
    if (!holder) {
      await this.deps.codes.issue(code, { send: false });
      await this.paceLikeASend();
      return { ok: true, channel: this.channel };
    }
    return this.send(code, locale, { source: 'interaction', account_id: holder.accountId });
  }

  /** A code to prove a number being added by the signed-in account (never a number another account has). */
  async requestAddCode(account: Pick<Account, 'id'>, e164: string, ip: string, locale: Locale): Promise<CodeRequestOutcome> {
    const limited = await takePhoneLimits(this.deps.limits, e164, ip);
    if (limited) {
      securityEvent('phone.throttled', {
        source: 'account_page',
        account_id: account.id,
        limit: `phone_${limited.limit}`,
        retry_after: limited.retryAfterSeconds,
      });
      return { ok: false, reason: 'tooMany', ...limited };
    }
    if (await this.deps.budget.spent()) return this.budgetSpent('account_page', account.id);
    const code = { holder: addHolder(account.id), phoneNumber: e164, accountId: account.id, channel: this.channel };
    // A number another account holds gets no message, and the page answers alike: the check then fails.
    const other = await this.deps.numbers.findByNumber(e164);
    if (other && other.accountId !== account.id) {
      await this.deps.codes.issue({ ...code, accountId: null }, { send: false });
      await this.paceLikeASend();
      return { ok: true, channel: this.channel };
    }
    return this.send(code, locale, { source: 'account_page', account_id: account.id });
  }

  /**
   * Checks a sign-in code. A right code for a number still in its cooling-off period, or whose SIM the
   * operator says was changed, does not sign in: it proves the SIM, and the SIM is what may be stolen.
   */
  async checkSignInCode(interactionUid: string, typed: string): Promise<SignInCheck> {
    const checked = await this.deps.codes.check(signInHolder(interactionUid), typed);
    if (!checked.ok) return checked;
    const { accountId, phoneNumber, channel } = checked.code;
    // The number may have left the account since the code was sent.
    const holder = await this.deps.numbers.findByNumber(phoneNumber);
    if (!accountId || holder?.accountId !== accountId) return { ok: false, reason: 'none' };
    // As for the password: only someone who proved the number learns that its account is disabled.
    if (holder.disabled) throw new AccountDisabledError(accountId);
    if (inCoolingOff(holder.verifiedAt, this.deps.config.coolingOffHours, this.now())) {
      securityEvent('phone.sign_in_refused', { source: 'interaction', account_id: accountId, reason: 'cooling_off' });
      return { ok: false, reason: 'coolingOff' };
    }
    const verdict = await this.deps.simSwap(phoneNumber);
    if (verdict !== 'not_swapped') {
      securityEvent('phone.sign_in_refused', {
        source: 'interaction',
        account_id: accountId,
        reason: verdict === 'swapped' ? 'sim_swapped' : 'sim_swap_check_unavailable',
      });
      return { ok: false, reason: 'simSwap' };
    }
    return { ok: true, accountId, channel };
  }

  /** Checks the code of a number being added; the number it was sent to when right. */
  async checkAddCode(accountId: string, typed: string): Promise<{ ok: true; phoneNumber: string } | Exclude<SignInCheck, { ok: true }>> {
    const checked = await this.deps.codes.check(addHolder(accountId), typed);
    if (!checked.ok) return checked;
    if (checked.code.accountId !== accountId) return { ok: false, reason: 'none' };
    return { ok: true, phoneNumber: checked.code.phoneNumber };
  }

  /** The number a code is pending for, for the code page (masked there). */
  async pendingNumber(holder: string): Promise<IssuedCode | undefined> {
    return this.deps.codes.pending(holder);
  }

  private async send(code: IssuedCode, locale: Locale, fields: { source: 'interaction' | 'account_page'; account_id: string }) {
    if (!(await this.deps.budget.take())) return this.budgetSpent(fields.source, fields.account_id);
    const value = await this.deps.codes.issue(code, { send: true });
    const { issuer, serviceName } = this.deps.config;
    const started = performance.now();
    try {
      await this.deps.gateway.send({ to: code.phoneNumber, code: value!, text: codeText(value!, locale, issuer, serviceName), locale });
    } catch (error) {
      if (!(error instanceof GatewayError)) throw error;
      // The code cannot arrive: it is ended, so that the page's "send again" starts afresh.
      await this.deps.codes.end(code.holder);
      securityEvent('phone.gateway_failed', {
        ...fields,
        reason: `${this.deps.gateway.name}_${error.reason}${error.status ? `_${error.status}` : ''}`,
      });
      return { ok: false as const, reason: 'gateway' as const };
    }
    this.recordSendTime(performance.now() - started);
    securityEvent('phone.code_sent', { ...fields, reason: this.deps.gateway.name });
    return { ok: true as const, channel: code.channel };
  }

  private budgetSpent(source: 'interaction' | 'account_page', accountId?: string): CodeRequestOutcome {
    securityEvent('phone.budget_exhausted', { source, account_id: accountId, limit: 'phone_daily_budget' });
    return { ok: false, reason: 'budget' };
  }

  private recordSendTime(ms: number): void {
    this.sendTimes.push(ms);
    if (this.sendTimes.length > 20) this.sendTimes.shift();
  }

  private async paceLikeASend(): Promise<void> {
    if (this.sendTimes.length === 0) return;
    const sorted = [...this.sendTimes].sort((a, b) => a - b);
    const median = sorted[Math.floor(sorted.length / 2)];
    await new Promise((resolve) => setTimeout(resolve, Math.min(median, 5000)));
  }

  private now(): Date {
    return this.deps.now?.() ?? new Date();
  }
}
