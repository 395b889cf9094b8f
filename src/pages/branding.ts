// The deployment's branding (config `branding`): its name, its logo and the links it must show (legal
// notice, accessibility statement, contact), on every page and in every e-mail. The logo is a local
// file, read once at start and served by the service itself like the stylesheet, with a hash of its
// content in the URL: no page ever loads an image from elsewhere.
import { createHash } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import { extname, resolve } from 'node:path';
import type Koa from 'koa';
import { ConfigError } from '../config/config-error.ts';
import type { SignInConfig } from '../config/schema.ts';
import type { Locale } from '../i18n/index.ts';
import { sendImmutable } from './assets.ts';

export const LOGO_PATH = '/static/logo';
export const MAX_LOGO_BYTES = 256 * 1024;

const LOGO_TYPES: Readonly<Record<string, string>> = {
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.webp': 'image/webp',
  '.gif': 'image/gif',
  '.svg': 'image/svg+xml',
};

type BrandingConfig = SignInConfig['branding'];
type BrandLabel = BrandingConfig['links'][number]['label'];

export interface Brand {
  /** The configured name; unset, each page uses the name of its catalog. */
  name?: string;
  logo?: { body: Buffer; type: string; etag: string; href: string };
  links: ReadonlyArray<{ label: BrandLabel; url: string }>;
}

/** The branding as a page or an e-mail shows it, in one language. */
export interface BrandView {
  name: string;
  /** Where the logo is served, relative to the service's mount path; null without a logo. */
  logoHref: string | null;
  links: Array<{ label: string; url: string }>;
}

/** Reads the logo file; a missing, oversized or unreadable one stops the service at start, naming the key. */
export async function loadBrand(config: BrandingConfig): Promise<Brand> {
  const brand: Brand = { name: config.serviceName, links: config.links };
  if (!config.logo) return brand;
  const path = resolve(config.logo);
  const type = LOGO_TYPES[extname(path).toLowerCase()];
  const problem = (message: string) => new ConfigError([{ field: 'branding.logo', message }]);
  if (!type) throw problem('must be a .png, .jpg, .webp, .gif or .svg file');
  let size: number;
  try {
    size = (await stat(path)).size;
  } catch {
    throw problem(`cannot read ${path}`);
  }
  if (size > MAX_LOGO_BYTES) throw problem(`is ${Math.ceil(size / 1024)} KB; the logo must be at most ${MAX_LOGO_BYTES / 1024} KB`);
  const body = await readFile(path);
  const hash = createHash('sha256').update(body).digest('base64url').slice(0, 12);
  return { ...brand, logo: { body, type, etag: `"${hash}"`, href: `${LOGO_PATH}?v=${hash}` } };
}

/** The branding of a page or an e-mail in `locale`; `fallbackName` is the catalog's name of the service. */
export function brandView(brand: Brand | undefined, locale: Locale, fallbackName: string): BrandView {
  return {
    name: brand?.name ?? fallbackName,
    logoHref: brand?.logo?.href ?? null,
    links: (brand?.links ?? []).map((link) => ({ label: typeof link.label === 'string' ? link.label : link.label[locale], url: link.url })),
  };
}

/** The branding of this request's service (set by `brandingRoutes`), if any. */
export function brandOf(ctx: { state?: unknown }): Brand | undefined {
  const state = ctx.state as { brand?: Brand } | undefined;
  return state?.brand;
}

/** Hands the branding to every page of the request (the engine's own pages included: they share the context). */
export function shareBrand(brand: Brand): Koa.Middleware {
  return function shareBranding(ctx, next) {
    ctx.state.brand = brand;
    return next();
  };
}

/** GET /static/logo: the logo, cached for good since its URL changes with it. */
export function serveLogo(brand: Brand): Koa.Middleware {
  return function serveBrandLogo(ctx, next) {
    if (ctx.path !== LOGO_PATH || (ctx.method !== 'GET' && ctx.method !== 'HEAD') || !brand.logo) return next();
    // An SVG opened on its own is a document: it may run nothing and load nothing.
    sendImmutable(ctx, brand.logo, { 'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'; sandbox" });
  };
}
