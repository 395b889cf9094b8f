// The engine's own PKCE check, which it applies at its token endpoint (oidc-provider 9.13,
// lib/helpers/pkce.js). The package declares no `exports` map, so this path resolves; its typings do
// not cover it. Throws the engine's InvalidRequest (malformed verifier) or InvalidGrant (no match).
declare module 'oidc-provider/lib/helpers/pkce.js' {
  export default function checkPKCE(verifier: string | undefined, challenge: string | undefined, method: string | undefined): void;
}
