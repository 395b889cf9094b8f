// An authenticator in the test process, for the refusals a browser would never produce on its own: an
// assertion for another origin or relying-party id, for another user, with a counter that went back. Its
// key is a P-256 key of node:crypto; its COSE public key is encoded with the library's own CBOR helper,
// and its passkey is stored as a registration would store it. The signature is what an authenticator signs:
// the authenticator data followed by the hash of the client data.
import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';
import { isoBase64URL, isoCBOR } from '@simplewebauthn/server/helpers';
import type { PasskeyStore } from '../../src/passkeys/store.ts';
import { userHandleOf } from '../../src/passkeys/ceremony.ts';

export interface AssertionOptions {
  challenge: string;
  origin: string;
  rpId: string;
  counter: number;
  /** The account the authenticator says the passkey is for (by default its owner). */
  userId?: string;
}

export class SoftAuthenticator {
  readonly id = randomBytes(16).toString('base64url');
  private readonly privateKey: KeyObject;
  readonly publicKey: string;

  constructor(readonly accountId: string) {
    const pair = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    this.privateKey = pair.privateKey;
    const jwk = pair.publicKey.export({ format: 'jwk' });
    const cose = new Map<number, number | Uint8Array>([
      [1, 2], // kty: EC2
      [3, -7], // alg: ES256
      [-1, 1], // crv: P-256
      [-2, isoBase64URL.toBuffer(jwk.x!)],
      [-3, isoBase64URL.toBuffer(jwk.y!)],
    ]);
    this.publicKey = isoBase64URL.fromBuffer(isoCBOR.encode(cose));
  }

  /** Stores the passkey as a registration would have, with its counter at `counter`. */
  async register(passkeys: Pick<PasskeyStore, 'add'>, counter = 0): Promise<void> {
    await passkeys.add({
      id: this.id,
      accountId: this.accountId,
      publicKey: this.publicKey,
      counter,
      transports: ['internal'],
      backupEligible: false,
      backedUp: false,
      deviceType: 'singleDevice',
      name: 'Test key',
    });
  }

  /** The browser's answer to a sign-in challenge, as JSON (what the page posts). */
  assert(options: AssertionOptions): string {
    const clientDataJSON = Buffer.from(
      JSON.stringify({ type: 'webauthn.get', challenge: options.challenge, origin: options.origin, crossOrigin: false }),
    );
    const counter = Buffer.alloc(4);
    counter.writeUInt32BE(options.counter);
    // Flags: user present (0x01) and user verified (0x04).
    const authenticatorData = Buffer.concat([createHash('sha256').update(options.rpId).digest(), Buffer.from([0x05]), counter]);
    const signed = Buffer.concat([authenticatorData, createHash('sha256').update(clientDataJSON).digest()]);
    const signature = sign('sha256', signed, this.privateKey);
    return JSON.stringify({
      id: this.id,
      rawId: this.id,
      type: 'public-key',
      clientExtensionResults: {},
      response: {
        clientDataJSON: clientDataJSON.toString('base64url'),
        authenticatorData: authenticatorData.toString('base64url'),
        signature: signature.toString('base64url'),
        userHandle: userHandleOf(options.userId ?? this.accountId),
      },
    });
  }
}
