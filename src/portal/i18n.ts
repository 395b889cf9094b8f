// The portal's own typed translator, on top of the service's locales: its strings live in
// portal-fr.ts / portal-en.ts so that the portal can change without touching the sign-in catalogs.
import type { Locale, MessageVars } from '../i18n/index.ts';
import { portalEn, type PortalMessages } from '../i18n/portal-en.ts';
import { portalFr } from '../i18n/portal-fr.ts';

export type PortalKey = keyof PortalMessages;
export type PortalTranslate = (key: PortalKey, vars?: MessageVars) => string;

const CATALOGS: Readonly<Record<Locale, PortalMessages>> = { fr: portalFr, en: portalEn };

export const isPortalKey = (key: string): key is PortalKey => Object.hasOwn(portalFr, key);

export function portalTranslator(locale: Locale): PortalTranslate {
  const catalog = CATALOGS[locale];
  return (key, vars) => {
    const message = catalog[key];
    if (!vars) return message;
    return message.replace(/\{(\w+)\}/g, (placeholder, name: string) => (Object.hasOwn(vars, name) ? String(vars[name]) : placeholder));
  };
}
