// The signing keys as the engine is given them (src/provider/engine/pool-signing-keys.ts): for each
// algorithm the service generates, a signature verifies against the key's public half as the JWKS
// publishes it, in the form a JWS carries; and a key that could not sign is refused when it is given.
import { describe, expect, it } from 'vitest';
import { generateSigningKey, publicPart, type SigningAlgorithm } from '../../src/keys/signing-keys.ts';
import { poolSigningKeys } from '../../src/provider/engine.ts';
import { signatureVerifies } from './jws.ts';

const DATA = Buffer.from('eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJ1c2VyIn0');

describe.each(['RS256', 'ES256', 'EdDSA'] as const)('a %s key', (alg: SigningAlgorithm) => {
  const jwk = generateSigningKey(alg);
  const [key] = poolSigningKeys([jwk]);
  const verifies = (data: Buffer, signature: Buffer) => signatureVerifies(alg, publicPart(jwk), data, signature);

  it('signs what its published public half verifies, and nothing else', async () => {
    const signature = Buffer.from(await key.sign(DATA));
    expect(verifies(DATA, signature)).toBe(true);
    expect(verifies(Buffer.from(`${DATA}x`), signature)).toBe(false);
    // A JWS carries an ECDSA signature as r || s (RFC 7518 §3.4), 64 bytes for P-256, not DER.
    if (alg === 'ES256') expect(signature.length).toBe(64);
  });

  it('shows the engine the kid, algorithm and public members of the JWK', () => {
    const { kty, n, e, crv, x, y } = key;
    const shown = Object.fromEntries(
      Object.entries({ kty, n, e, crv, x, y, kid: key.kid, alg: key.alg, use: key.use }).filter(([, v]) => v !== undefined),
    );
    expect(shown).toEqual(publicPart(jwk));
  });
});

describe('a key the engine could not sign with', () => {
  it('is refused when given: without its private members, or of another algorithm', () => {
    expect(() => poolSigningKeys([{ kid: 'broken', alg: 'RS256', kty: 'RSA' }])).toThrow();
    const { d: _d, ...publicOnly } = generateSigningKey('ES256');
    expect(() => poolSigningKeys([publicOnly])).toThrow();
    expect(() => poolSigningKeys([{ ...generateSigningKey('RS256'), alg: 'PS256' }])).toThrow(/unsupported algorithm PS256/);
  });
});
