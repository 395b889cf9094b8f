// The text rules of every request, as pure functions: strict percent-decoding to UTF-8, no control
// characters (forms keep their line breaks), repeated names kept for the caller to judge.
import { describe, expect, it } from 'vitest';
import { decodeForm, decodePath, InputError } from '../../src/http/input-rules.ts';

const problemOf = (fn: () => unknown): string | undefined => {
  try {
    fn();
    return undefined;
  } catch (error) {
    return error instanceof InputError ? error.problem : 'other';
  }
};

describe('the input rules', () => {
  it('decode a form like a browser encodes it, keeping repeated names', () => {
    expect(decodeForm('a=1&b=%C3%A9t%C3%A9+ici&a=2&&c=&d')).toEqual([
      ['a', '1'],
      ['b', 'été ici'],
      ['a', '2'],
      ['c', ''],
      ['d', ''],
    ]);
  });

  it('read a form with nothing to decode, as text or as bytes, as they read the same form encoded', () => {
    const plain = 'grant_type=refresh_token&&=x&c=&d&e=f=g&scope=openid email';
    const encoded = 'grant_type=refresh%5Ftoken&&=x&c=&d&e=f%3Dg&scope=openid%20email';
    const fields = [
      ['grant_type', 'refresh_token'],
      ['c', ''],
      ['d', ''],
      ['e', 'f=g'],
      ['scope', 'openid email'],
    ];
    expect(decodeForm(encoded)).toEqual(fields);
    expect(decodeForm(plain)).toEqual(fields);
    expect(decodeForm(Buffer.from(plain))).toEqual(fields);
    // A control character or a byte beyond ASCII is never plain: refused as in any other form.
    expect(problemOf(() => decodeForm('a=b\tc'))).toBe('control');
    expect(problemOf(() => decodeForm(Buffer.from('a=b\u007fc')))).toBe('control');
    expect(problemOf(() => decodeForm(Buffer.from([0x61, 0x3d, 0xff])))).toBe('encoding');
    expect(decodeForm(Buffer.from('a=été'))).toEqual([['a', 'été']]);
  });

  it.each([
    ['a%00b', 'control'],
    ['a%1Bb', 'control'],
    ['a%7Fb', 'control'],
    ['a%C2%85b', 'control'], // C1 NEL
    ['a%ffb', 'encoding'],
    ['a%ED%A0%80b', 'encoding'], // UTF-8 of the lone surrogate U+D800
    ['a%C0%AFb', 'encoding'], // overlong '/'
    ['a%zzb', 'encoding'],
    ['a%2', 'encoding'],
  ])('refuses %s (%s)', (value, problem) => {
    expect(problemOf(() => decodeForm(`x=${value}`))).toBe(problem);
    expect(problemOf(() => decodeForm(`${value}=x`))).toBe(problem);
  });

  it('keeps tab and line breaks in forms only', () => {
    expect(decodeForm('t=a%0D%0Ab%09c', { lineBreaks: true })).toEqual([['t', 'a\r\nb\tc']]);
    expect(problemOf(() => decodeForm('t=a%0D%0Ab'))).toBe('control');
    expect(problemOf(() => decodeForm('t=a%00b', { lineBreaks: true }))).toBe('control');
  });

  it('decode a path without reading + as a space, and refuse the same characters in it', () => {
    expect(decodePath('/portal/apps/a+b%20c')).toBe('/portal/apps/a+b c');
    expect(decodePath('/portal/apps/a+b')).toBe('/portal/apps/a+b');
    expect(problemOf(() => decodePath('/portal/apps/a\u007fb'))).toBe('control');
    expect(problemOf(() => decodePath('/portal/apps/a%00b'))).toBe('control');
    expect(problemOf(() => decodePath('/portal/apps/%ff'))).toBe('encoding');
  });
});
