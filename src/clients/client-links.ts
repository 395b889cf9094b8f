// The optional links an application shows on the consent screen: its logo, its privacy policy and its
// terms of service. Each is an absolute https URL, checked here for the CLI and the portal alike.
import type { FieldError } from './validate.ts';

export interface ClientLinks {
  logoUri: string | null;
  policyUri: string | null;
  tosUri: string | null;
}

export type ClientLinkField = 'logoUri' | 'policyUri' | 'tosUri';
export const CLIENT_LINK_FIELDS: readonly ClientLinkField[] = ['logoUri', 'policyUri', 'tosUri'];

export const MAX_LINK_LENGTH = 500;

export const NO_LINKS: ClientLinks = { logoUri: null, policyUri: null, tosUri: null };

/** An empty or blank value means "no link". */
export const linkValue = (value: string | null | undefined): string | null => (value?.trim() ? value.trim() : null);

/**
 * The problem of one link, if any. https only: the page that shows them is served over https, and a
 * policy reached over plain http could be swapped on the way. The logo URL also becomes a source of the
 * consent page's Content-Security-Policy (`img-src`), so it must not contain what ends a source there.
 */
export function linkProblem(field: ClientLinkField, value: string): string | undefined {
  if (value.length > MAX_LINK_LENGTH) return 'too_long';
  const url = URL.parse(value);
  if (!url) return 'link.not_absolute';
  if (url.protocol !== 'https:') return 'link.https_required';
  if (url.username || url.password) return 'link.userinfo';
  if (url.hash) return 'link.fragment';
  if (field === 'logoUri' && /[\s;,'"]/.test(url.href)) return 'link.unsafe';
  return undefined;
}

export function validateClientLinks(links: Partial<ClientLinks>): FieldError[] {
  const errors: FieldError[] = [];
  for (const field of CLIENT_LINK_FIELDS) {
    const value = linkValue(links[field]);
    const code = value === null ? undefined : linkProblem(field, value);
    if (code) errors.push({ field, code, value: value ?? undefined });
  }
  return errors;
}
