// The applications a user has shared data with, as the account page lists them: one entry per
// application (several consents, one per grant, are merged), with every scope it holds and since when.
// The service's own applications (the developer portal) are not listed: the user never chose to share
// anything with them, and revoking one would only sign them out of the service's own pages.
import type { ClientRegistry } from '../clients/registry.ts';
import type { Consent, ConsentStore } from '../consents/store.ts';
import type { Locale, Translate } from '../i18n/index.ts';
import { isScope } from '../policy/scopes.ts';

export interface SharedApplication {
  clientId: string;
  name: string;
  scopes: string[];
  since: string;
}

const DATE_LOCALE: Record<Locale, string> = { fr: 'fr-FR', en: 'en-GB' };

export async function sharedApplications(
  accountId: string,
  deps: { consents: Pick<ConsentStore, 'listForAccount'>; clients: Pick<ClientRegistry, 'get'> },
  locale: Locale,
  t: Translate,
): Promise<SharedApplication[]> {
  const byClient = new Map<string, Consent[]>();
  for (const consent of await deps.consents.listForAccount(accountId)) {
    byClient.set(consent.clientId, [...(byClient.get(consent.clientId) ?? []), consent]);
  }
  const format = new Intl.DateTimeFormat(DATE_LOCALE[locale], { dateStyle: 'long' });
  const apps: SharedApplication[] = [];
  for (const [clientId, consents] of byClient) {
    const client = await deps.clients.get(clientId);
    if (client?.firstParty) continue;
    const scopes = [...new Set(consents.flatMap((c) => c.scopes))].filter(isScope);
    const since = new Date(Math.min(...consents.map((c) => c.createdAt.getTime())));
    apps.push({
      clientId,
      name: client?.name ?? t('account.apps.unknown'),
      scopes: scopes.map((scope) => t(`scope.${scope}.label`)),
      since: format.format(since),
    });
  }
  return apps.sort((a, b) => a.name.localeCompare(b.name, DATE_LOCALE[locale]));
}
