// Narrow local types for the parts of the engine configuration that @types/oidc-provider (9.12) leaves
// open. An open type accepts any key, so a misspelt one compiles and the engine silently ignores it;
// these close them so that `npm run typecheck` catches the typo instead.
import type { AllClientMetadata, AsymmetricSigningAlgorithm, Configuration } from 'oidc-provider';

/** `T` without its `[key: string]: unknown` index signature: only the declared keys are accepted. */
export type KnownKeys<T> = { [K in keyof T as string extends K ? never : number extends K ? never : K]: T[K] };

/**
 * Lifetimes, by engine model. The typings add an index signature; the engine reads `ttl[Model.name]`
 * for the models listed here (lib/helpers/defaults.js, lib/models/base_token.js).
 */
export type EngineTtl = KnownKeys<NonNullable<Configuration['ttl']>>;

/** Metadata every client gets unless it says otherwise; the typings accept any extra metadata key. */
export type ClientDefaults = KnownKeys<AllClientMetadata>;

/**
 * Extra discovery metadata (the engine merges any object into its discovery document, so the typings
 * accept any key); these are the ones we publish.
 */
export interface DiscoveryExtras {
  ui_locales_supported: readonly string[];
  claims_locales_supported: readonly string[];
  revocation_endpoint_auth_methods_supported: readonly string[];
  introspection_endpoint_auth_methods_supported: readonly string[];
}

/**
 * Signing algorithms we enable. Client secrets are stored hashed, so no HMAC (HS*) algorithm may
 * appear: the engine's typings allow them, this type does not.
 */
export type SigningAlgorithm = AsymmetricSigningAlgorithm;
