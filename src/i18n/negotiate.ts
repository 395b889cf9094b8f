// Picks the page language: the request's ui_locales, then the `lang` cookie, then Accept-Language,
// then the configured default. Tags match on their primary subtag, so "fr-CI" selects "fr".
import type { Locale } from './locales.ts';

export interface LocaleSources {
  /** The OpenID Connect `ui_locales` parameter: space-separated tags, in order of preference. */
  uiLocales?: string;
  /** Value of the `lang` cookie. */
  cookie?: string;
  /** The Accept-Language request header. */
  acceptLanguage?: string;
  supported: readonly Locale[];
  fallback: Locale;
}

export function negotiateLocale(sources: LocaleSources): Locale {
  const { supported } = sources;
  const fromUiLocales = firstSupported(splitUiLocales(sources.uiLocales), supported);
  if (fromUiLocales) return fromUiLocales;
  const fromCookie = firstSupported(sources.cookie ? [sources.cookie] : [], supported);
  if (fromCookie) return fromCookie;
  const fromHeader = firstSupported(parseAcceptLanguage(sources.acceptLanguage), supported);
  return fromHeader ?? sources.fallback;
}

function splitUiLocales(value: string | undefined): string[] {
  return (value ?? '').split(' ').filter(Boolean);
}

/**
 * Language ranges of an Accept-Language header, most preferred first (RFC 9110 §12.5.4). Ranges with
 * q=0 are "not acceptable" and dropped; equal weights keep the order the client sent them in. The
 * wildcard is dropped too: it says nothing about which of our languages the reader prefers.
 */
export function parseAcceptLanguage(header: string | undefined): string[] {
  if (!header) return [];
  const ranges: { tag: string; q: number; index: number }[] = [];
  header.split(',').forEach((part, index) => {
    const [rawTag, ...params] = part.split(';');
    const tag = rawTag.trim();
    if (!tag || tag === '*') return;
    let q = 1;
    for (const param of params) {
      const [name, value] = param.split('=').map((s) => s.trim());
      if (name.toLowerCase() === 'q') q = /^(0(\.\d{0,3})?|1(\.0{0,3})?)$/.test(value ?? '') ? Number(value) : NaN;
    }
    if (q > 0) ranges.push({ tag, q, index });
  });
  return ranges.sort((a, b) => b.q - a.q || a.index - b.index).map((r) => r.tag);
}

function firstSupported(tags: readonly string[], supported: readonly Locale[]): Locale | undefined {
  for (const tag of tags) {
    const primary = tag.trim().toLowerCase().split(/[-_]/)[0];
    const match = supported.find((locale) => locale === primary);
    if (match) return match;
  }
  return undefined;
}
