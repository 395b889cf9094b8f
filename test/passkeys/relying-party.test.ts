// The relying-party id follows the issuer's host (never its port or path prefix), and the origins its
// origin, unless configured; an origin outside the relying-party id stops the start.
import { describe, expect, it } from 'vitest';
import { passkeysSchema } from '../../src/config/passkeys-schema.ts';
import { relyingParty } from '../../src/passkeys/relying-party.ts';

const config = (issuer: string, passkeys: Record<string, unknown> = {}) => ({
  issuer,
  passkeys: passkeysSchema.parse(passkeys),
  branding: { links: [] },
});

describe('relying party', () => {
  it('takes the host of an issuer mounted under a path, and its origin', () => {
    expect(relyingParty(config('https://Login.Example.org:8443/auth'))).toMatchObject({
      id: 'login.example.org',
      origins: ['https://login.example.org:8443'],
      timeoutSeconds: 300,
    });
  });

  it('accepts a parent domain with pages on another host below it', () => {
    const rp = relyingParty(config('https://id.example.org', { rpId: 'example.org', origins: ['https://www.example.org'] }));
    expect(rp).toMatchObject({ id: 'example.org', origins: ['https://www.example.org'] });
  });

  it('refuses an origin outside the relying-party id, and an id with a scheme or an origin with a path', () => {
    expect(() => relyingParty(config('https://id.example.org', { origins: ['https://evil.example'] }))).toThrow(
      /not on the relying-party id/,
    );
    expect(() => passkeysSchema.parse({ rpId: 'https://example.org' })).toThrow();
    expect(() => passkeysSchema.parse({ origins: ['https://example.org/auth'] })).toThrow();
  });
});
