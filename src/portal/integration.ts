// The integration help of an application's page: per application type, the libraries to use with this
// application's own values filled in (client_id, issuer, its first redirect URI, its scopes), the same
// steps by hand with curl, signing out, and which claims arrive where. Each section is built by one
// function (src/portal/integration/); this file only says which sections each type of application gets.
import type { RegisteredClient } from '../clients/registry.ts';
import { isMachineClient } from '../provider/client-metadata.ts';
import { curlSection, machineSection } from './integration/curl.ts';
import { fedcmSection } from './integration/fedcm.ts';
import type { HelpSection } from './integration/help-blocks.ts';
import { helpValues } from './integration/help-values.ts';
import { mobileAppSection } from './integration/mobile-app.ts';
import { nodeWebAppSection } from './integration/node-web-app.ts';
import { pythonWebAppSection } from './integration/python-web-app.ts';
import { claimsSection, signOutSection } from './integration/sign-out-and-claims.ts';
import { singlePageAppSection } from './integration/single-page-app.ts';

export type { CodeBlock, HelpSection } from './integration/help-blocks.ts';

export interface IntegrationHelp {
  /** A mobile app or a single-page app: PKCE alone at the token endpoint, no secret in the app. */
  publicClient: boolean;
  /** A server application: client_credentials, no user, so no authorize URL and no userinfo. */
  machine: boolean;
  discoveryUrl: string;
  sections: HelpSection[];
}

export function integrationHelp(issuer: string, client: RegisteredClient): IntegrationHelp {
  const values = helpValues(issuer, client);
  return {
    publicClient: values.publicClient,
    machine: isMachineClient(client),
    discoveryUrl: values.urls.discovery,
    sections: sectionsFor(client, values),
  };
}

function sectionsFor(client: RegisteredClient, values: ReturnType<typeof helpValues>): HelpSection[] {
  if (isMachineClient(client)) return [machineSection(values)];
  const libraries =
    client.appType === 'spa'
      ? [singlePageAppSection(values)]
      : client.appType === 'mobile'
        ? [mobileAppSection(values)]
        : [nodeWebAppSection(values), pythonWebAppSection(values)];
  // Web pages may also sign in through the browser's account chooser (FedCM: https issuers only).
  const fedcm = client.appType !== 'mobile' && !values.insecureIssuer ? [fedcmSection(values)] : [];
  return [...libraries, ...fedcm, curlSection(values), signOutSection(values), claimsSection(client)];
}
