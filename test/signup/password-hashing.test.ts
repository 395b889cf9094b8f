// Password hashes: argon2id, and the same password however its accents were typed (NFKC).
import { describe, expect, it } from 'vitest';
import { hashPassword, verifyPassword } from '../../src/accounts/password.ts';

describe('password hashing', () => {
  it('stores an argon2id hash at OWASP parameters, never the password', async () => {
    const stored = await hashPassword('mot de passe très sûr');
    expect(stored).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(stored).not.toContain('très');
  });

  it('accepts the password typed with composed or decomposed accents', async () => {
    const stored = await hashPassword('café au lait de Cotonou'); // é as one code point
    expect(await verifyPassword(stored, 'cafe\u0301 au lait de Cotonou')).toBe(true); // e + combining accent
    expect(await verifyPassword(stored, 'cafe au lait de Cotonou')).toBe(false);
  });
});
