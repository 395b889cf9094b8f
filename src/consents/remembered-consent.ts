// Whether a consent the user gave an application before spares them the consent screen, or whether
// they are asked at every authorization.
//
// The consent screen asks "do you let this application have your data?", and the application is known
// by where its code goes: a registered redirect URI. A web application proves itself again at the token
// endpoint with its secret, so its consent is remembered (store.ts). A public client has no secret:
//  - a mobile app's private-use scheme can be claimed by another app on the same phone (RFC 8252 §8.6),
//    so the engine asks at every authorization of a `native` application (its `native_client_prompt`
//    check; mobile apps are `native`, src/provider/client-metadata.ts). That is not decided here;
//  - a single-page app's identity rests on its redirect URI alone: a page served at that address gets
//    the code. Its consent is remembered only when every redirect URI is https on a host its verified
//    owner controls: the application is verified by an operator (`signin client verify`), who checked
//    that its redirect hosts belong to its owner, and https guarantees the page came from that host.
//    Otherwise (not verified, or an http loopback URI for development, where anything listening on the
//    user's machine may answer) the user is asked every time, as for a mobile app.
// Applications of the service itself (the portal) are never asked (interactions/consent.ts).
import type { RegisteredClient } from '../clients/registry.ts';

export type ConsentClient = Pick<RegisteredClient, 'appType' | 'firstParty' | 'verifiedAt' | 'redirectUris'>;

const isHttps = (uri: string): boolean => URL.parse(uri)?.protocol === 'https:';

/** Whether a remembered consent to `client` may be used instead of asking the user (mobile apps: the engine asks anyway). */
export function remembersConsent(client: ConsentClient): boolean {
  if (client.firstParty || client.appType !== 'spa') return true;
  return client.verifiedAt !== null && client.redirectUris.length > 0 && client.redirectUris.every(isHttps);
}
