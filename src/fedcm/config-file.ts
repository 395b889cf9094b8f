// The FedCM config file (the `configURL` an application names), and the well-known file that tells the
// browser which config files speak for the issuer's registrable domain. The browser fetches both without
// cookies and without following redirects, so each is answered directly, as JSON.
import type Koa from 'koa';
import type { SignInConfig } from '../config/schema.ts';
import type { Brand } from '../pages/branding.ts';
import { brandOf } from '../pages/branding.ts';
import { FEDCM_ROUTES, fedcmConfigUrl } from './fedcm-urls.ts';

/** The service's own colours (views/static/app.css `--brand`, `--brand-ink`), for the browser's chooser. */
const BRAND_COLOURS = { background_color: '#0b5cad', color: '#ffffff' };
/** Image types the browser's chooser shows as the provider's icon (it draws no SVG). */
const ICON_TYPES = new Set(['image/png', 'image/jpeg', 'image/webp']);

export function configFile(config: Pick<SignInConfig, 'issuer'>, brand: Brand | undefined): object {
  const url = (path: string) => `${config.issuer}${path}`;
  return {
    accounts_endpoint: url(FEDCM_ROUTES.accounts),
    client_metadata_endpoint: url(FEDCM_ROUTES.clientMetadata),
    id_assertion_endpoint: url(FEDCM_ROUTES.assertion),
    disconnect_endpoint: url(FEDCM_ROUTES.disconnect),
    login_url: url(FEDCM_ROUTES.login),
    branding: {
      ...BRAND_COLOURS,
      ...(brand?.name ? { name: brand.name } : {}),
      ...(brand?.logo && ICON_TYPES.has(brand.logo.type) ? { icons: [{ url: url(brand.logo.href), size: 40 }] } : {}),
    },
  };
}

/** The well-known file: the one config file of this service, and its accounts endpoint and login URL. */
export function wellKnownFile(config: Pick<SignInConfig, 'issuer'>): object {
  return {
    provider_urls: [fedcmConfigUrl(config.issuer)],
    accounts_endpoint: `${config.issuer}${FEDCM_ROUTES.accounts}`,
    login_url: `${config.issuer}${FEDCM_ROUTES.login}`,
  };
}

// Second-level labels under which a country's names are registered (example.co.uk, example.com.sn): a host
// one label below them is registrable. A rule of thumb, not the Public Suffix List: an operator whose host
// it misjudges places the file at the root domain with `signin fedcm well-known` instead.
const SECOND_LEVEL = new Set(['co', 'com', 'org', 'net', 'gov', 'edu', 'ac', 'or', 'ne', 'go']);

/**
 * Whether the issuer's host is a registrable domain (eTLD+1), where the browser looks for the well-known
 * file: `example.org` is, `login.example.org` is not. An issuer with a path prefix cannot serve the root.
 */
export function servesWellKnown(issuer: string): boolean {
  const url = new URL(issuer);
  if (url.pathname.replace(/\/+$/, '') !== '') return false;
  const labels = url.hostname.split('.');
  if (labels.length === 2) return !/^\d+$/.test(labels[1]!);
  return labels.length === 3 && labels[2]!.length === 2 && SECOND_LEVEL.has(labels[1]!);
}

export function serveConfigFile(config: Pick<SignInConfig, 'issuer'>): Koa.Middleware {
  return function configFileRoute(ctx) {
    ctx.set('Cache-Control', 'public, max-age=300');
    ctx.body = configFile(config, brandOf(ctx));
  };
}

export function serveWellKnown(config: Pick<SignInConfig, 'issuer'>): Koa.Middleware {
  return function wellKnownRoute(ctx) {
    ctx.set('Cache-Control', 'public, max-age=300');
    ctx.body = wellKnownFile(config);
  };
}
