// The rules of phone sign-in that need no server: numbers as people type them in the eight UEMOA
// countries, the allow-list, the masked and ranged forms, the cooling-off period, the SMS text with its
// WebOTP line, the claims and scope, and the config section's defaults and refusals.
import { describe, expect, it } from 'vitest';
import { phoneSchema, UEMOA_COUNTRY_CODES } from '../../src/config/phone-schema.ts';
import { accountClaims } from '../../src/policy/claims.ts';
import { isScope, SCOPE_CLAIMS } from '../../src/policy/scopes.ts';
import { codeText } from '../../src/phone/code-text.ts';
import { inCoolingOff } from '../../src/phone/cooling-off.ts';
import { maskedNumber, numberPrefix, parsePhoneNumber } from '../../src/phone/phone-number.ts';

describe('phone numbers', () => {
  it('reads the national forms of the eight UEMOA countries, and international ones', () => {
    const cases: Array<[string, string, string]> = [
      ['77 123 45 67', '+221', '+221771234567'],
      ['70 12 34 56', '+223', '+22370123456'],
      ['07 07 12 34 56', '+225', '+2250707123456'],
      ['70 12 34 56', '+226', '+22670123456'],
      ['90 12 34 56', '+227', '+22790123456'],
      ['90 12 34 56', '+228', '+22890123456'],
      ['01 97 12 34 56', '+229', '+2290197123456'],
      ['955 12 34 56', '+245', '+245955123456'],
      ['+225 07 07 12 34 56', '+221', '+2250707123456'],
      ['00225 0707123456', '+221', '+2250707123456'],
    ];
    for (const [typed, country, e164] of cases)
      expect(parsePhoneNumber(typed, country, UEMOA_COUNTRY_CODES), typed).toEqual({ ok: true, e164 });
  });

  it('refuses a number of a country outside the list, and what is not a number', () => {
    expect(parsePhoneNumber('+33 6 12 34 56 78', '+225', UEMOA_COUNTRY_CODES)).toEqual({ ok: false, reason: 'country' });
    expect(parsePhoneNumber('07 07', '+225', UEMOA_COUNTRY_CODES)).toEqual({ ok: false, reason: 'invalid' });
    expect(parsePhoneNumber('appelle-moi', '+225', UEMOA_COUNTRY_CODES)).toEqual({ ok: false, reason: 'invalid' });
  });

  it('masks all but the last two digits, and ranges a number by all but its last four', () => {
    expect(maskedNumber('+221771234567')).toBe('+221 •• ••• •• 67');
    expect(numberPrefix('+2250707123456')).toBe('+225070712');
  });
});

describe('cooling-off', () => {
  it('holds a number for the configured hours after its verification, not a second more', () => {
    const verified = new Date('2026-01-01T00:00:00Z');
    expect(inCoolingOff(verified, 72, new Date('2026-01-03T23:59:59Z'))).toBe(true);
    expect(inCoolingOff(verified, 72, new Date('2026-01-04T00:00:00Z'))).toBe(false);
    expect(inCoolingOff(verified, 0, verified)).toBe(false);
  });
});

describe('the code message', () => {
  it('ends with the WebOTP line of the issuer host', () => {
    const text = codeText('123456', 'fr', 'https://id.example.org/auth', 'Mairie');
    expect(text.split('\n').at(-1)).toBe('@id.example.org #123456');
    expect(text).toContain('123456 est votre code de connexion à Mairie');
    expect(text).toContain('5\u00a0minutes');
  });
});

describe('the phone scope', () => {
  it('releases the standard claims, only for an account with a number', () => {
    expect(isScope('phone')).toBe(true);
    expect(SCOPE_CLAIMS.phone).toEqual(['phone_number', 'phone_number_verified']);
    const account = { id: 'a', email: 'a@example.org', emailVerified: true, username: 'a', firstName: 'A' };
    expect(accountClaims(account)).not.toHaveProperty('phone_number');
    expect(accountClaims({ ...account, phoneNumber: '+2250707123456' })).toMatchObject({
      phone_number: '+2250707123456',
      phone_number_verified: true,
    });
  });
});

describe('the phone config section', () => {
  it('is off by default, with the UEMOA countries, 72 hours of cooling-off and a daily budget', () => {
    const phone = phoneSchema.parse(undefined);
    expect(phone).toMatchObject({ enabled: false, allowedCountryCodes: UEMOA_COUNTRY_CODES, coolingOffHours: 72, dailyBudget: 500 });
  });

  it('refuses to be on without a gateway, or with a gateway without its section', () => {
    expect(phoneSchema.safeParse({ enabled: true }).success).toBe(false);
    expect(phoneSchema.safeParse({ enabled: true, gateway: 'orange' }).success).toBe(false);
    expect(phoneSchema.safeParse({ enabled: true, gateway: 'webhook', webhook: { url: 'https://sms.example.org/send' } }).success).toBe(
      true,
    );
    expect(phoneSchema.safeParse({ allowedCountryCodes: ['225'] }).success).toBe(false);
  });
});
