// The portal's own typed catalog, on top of the service's locales: its strings live in
// src/i18n/portal-fr.ts and portal-en.ts so that the portal can change without touching the sign-in
// catalogs.
import { formatMessage, type Locale, type MessageVars } from '../i18n/index.ts';
import { portalEn, type PortalMessages } from '../i18n/portal-en.ts';
import { portalFr } from '../i18n/portal-fr.ts';

export type PortalKey = keyof PortalMessages;
export type PortalTranslate = (key: PortalKey, vars?: MessageVars) => string;

const CATALOGS: Readonly<Record<Locale, PortalMessages>> = { fr: portalFr, en: portalEn };

export const isPortalKey = (key: string): key is PortalKey => Object.hasOwn(portalFr, key);

export function portalTranslator(locale: Locale): PortalTranslate {
  const catalog = CATALOGS[locale];
  return (key, vars) => formatMessage(catalog[key], vars, locale);
}
