// Phone numbers as people type them, kept in E.164 (`+2250707123456`). A number typed in its national form
// ("07 07 12 34 56") is read in the country chosen beside it; one typed with `+` or `00` carries its own.
// Only the countries the deployment allows (phone.allowedCountryCodes) are accepted: the others are where
// SMS pumping sends its traffic, at the operator's cost.
import { getCountries, getCountryCallingCode, parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js';

export type ParsedNumber = { ok: true; e164: string } | { ok: false; reason: 'invalid' | 'country' };

/** The number in E.164 when it is a valid number of an allowed country. */
export function parsePhoneNumber(typed: string, callingCode: string, allowed: readonly string[]): ParsedNumber {
  const text = typed.trim().replace(/^00/, '+');
  if (!/^[+\d][\d\s.()-]{5,24}$/.test(text)) return { ok: false, reason: 'invalid' };
  const parsed = parsePhoneNumberFromString(text, { defaultCallingCode: callingCode.replace(/^\+/, '') });
  if (!parsed?.isValid()) return { ok: false, reason: 'invalid' };
  if (!allowed.includes(`+${parsed.countryCallingCode}`)) return { ok: false, reason: 'country' };
  return { ok: true, e164: parsed.number };
}

/** The number as its owner reads it: international format with spaces (`+225 07 07 12 34 56`). */
export function displayNumber(e164: string): string {
  return parsePhoneNumberFromString(e164)?.formatInternational() ?? e164;
}

/** The number with all but its last two digits hidden, for pages and notices (`+225 •• •• •• •• 56`). */
export function maskedNumber(e164: string): string {
  const shown = displayNumber(e164);
  const prefix = /^\+\d+/.exec(shown)?.[0] ?? '';
  const rest = shown.slice(prefix.length);
  let keep = 2;
  const masked = [...rest]
    .reverse()
    .map((c) => (/\d/.test(c) ? (keep-- > 0 ? c : '•') : c))
    .reverse()
    .join('');
  return prefix + masked;
}

/** The range a number belongs to, for the per-prefix limit: all but its last four digits. */
export function numberPrefix(e164: string): string {
  return e164.slice(0, -4);
}

export interface CountryChoice {
  /** `+225` */
  callingCode: string;
  /** The country's name in the page's language, with its code: `Côte d’Ivoire (+225)`. */
  label: string;
}

/** The allowed countries, for the select beside the number, in the order the config lists them. */
export function countryChoices(allowed: readonly string[], locale: string): CountryChoice[] {
  const names = new Intl.DisplayNames([locale], { type: 'region' });
  const byCode = new Map<string, CountryCode>();
  for (const country of getCountries()) {
    const code = `+${getCountryCallingCode(country)}`;
    if (!byCode.has(code)) byCode.set(code, country);
  }
  return allowed.map((callingCode) => {
    const country = byCode.get(callingCode);
    return { callingCode, label: country ? `${names.of(country) ?? country} (${callingCode})` : callingCode };
  });
}
