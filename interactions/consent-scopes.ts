// Which scopes the consent screen offers and what the user's choice grants. Pure functions, so the
// rules are plain to read and test.
import type { Account } from '../src/accounts/store.ts';
import type { Translate } from '../src/i18n/index.ts';
import { displayNumber } from '../src/phone/phone-number.ts';
import { isScope, REQUIRED_SCOPES, type ScopeName } from '../src/policy/scopes.ts';

/** Scopes of the request, in order, without duplicates. */
export function requestedScopes(scope: unknown): string[] {
  return typeof scope === 'string' ? [...new Set(scope.split(' ').filter(Boolean))] : [];
}

/** The requested scopes the application is registered for and that we know how to describe. */
export function offeredScopes(requested: readonly string[], registered: readonly string[]): ScopeName[] {
  return requested.filter((scope): scope is ScopeName => isScope(scope) && registered.includes(scope));
}

export interface ConsentDecision {
  granted: ScopeName[];
  /**
   * Every other requested scope, the ones never offered included: the engine asks for consent again
   * for any requested scope that is neither granted nor rejected.
   */
  rejected: string[];
}

/**
 * Scopes the user cannot switch off: `openid` is what signing in means, and every application registers
 * `email` as required (src/policy/scopes.ts) because it needs the address to sign the user in. The
 * user who does not want to share them refuses the whole request instead.
 */
export const isRequiredScope = (scope: string): boolean => (REQUIRED_SCOPES as readonly string[]).includes(scope);

/** Required scopes are granted whenever offered, ticked or not; the others only when ticked. */
export function decideConsent(requested: readonly string[], registered: readonly string[], ticked: readonly string[]): ConsentDecision {
  const chosen = new Set(ticked);
  const granted = offeredScopes(requested, registered).filter((scope) => isRequiredScope(scope) || chosen.has(scope));
  const rejected = requested.filter((scope) => !(granted as string[]).includes(scope));
  return { granted, rejected };
}

export interface ScopeItem {
  name: ScopeName;
  required: boolean;
  label: string;
  description: string;
  /** The user's own data this scope shares, as it will be sent. */
  value: string | null;
}

export function scopeItems(scopes: readonly ScopeName[], account: Account | undefined, t: Translate): ScopeItem[] {
  return scopes.map((name) => {
    switch (name) {
      case 'openid':
        return {
          name,
          required: isRequiredScope(name),
          label: t('scope.openid.label'),
          description: t('scope.openid.description'),
          value: null,
        };
      case 'email':
        return {
          name,
          required: isRequiredScope(name),
          label: t('scope.email.label'),
          description: t('scope.email.description'),
          value: account ? t('scope.email.value', { email: account.email }) : null,
        };
      case 'profile':
        return {
          name,
          required: isRequiredScope(name),
          label: t('scope.profile.label'),
          description: t('scope.profile.description'),
          value: account ? t('scope.profile.value', { username: account.username, firstName: account.firstName }) : null,
        };
      case 'phone':
        return {
          name,
          required: isRequiredScope(name),
          label: t('scope.phone.label'),
          description: t('scope.phone.description'),
          value: account?.phoneNumber ? displayNumber(account.phoneNumber) : account ? t('scope.phone.none') : null,
        };
    }
  });
}
