// The engine's construction of its keystore from a JWKS (oidc-provider 9.13,
// lib/helpers/initialize_keystore.js), called with the provider as `this`. The package declares no
// `exports` map, so this path resolves; its typings do not cover it. See signing-keys.ts.
declare module 'oidc-provider/lib/helpers/initialize_keystore.js' {
  import type Provider from 'oidc-provider';

  export default function initialize(this: Provider, jwks: { keys: object[] }): void;
}
