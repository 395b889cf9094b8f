// The two WebAuthn ceremonies, through @simplewebauthn/server: creating a passkey (registration) and signing
// in with one (authentication). The library checks the signatures and the attestation; around it, this file
// tells apart why an answer is refused, so that each refusal is logged with its own reason: a challenge
// unknown, used already or expired, another origin or relying-party id, a passkey that no longer exists or
// belongs to someone else, a counter that went back (a cloned authenticator). User verification (a PIN,
// a fingerprint) is required in both: a passkey alone is a complete sign-in.
import { createHash } from 'node:crypto';
import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
  type RegistrationResponseJSON,
} from '@simplewebauthn/server';
import { decodeClientDataJSON, isoBase64URL, parseAuthenticatorData } from '@simplewebauthn/server/helpers';
import type { ChallengePurpose, PasskeyChallenges } from './challenges.ts';
import type { RelyingParty } from './relying-party.ts';
import type { NewPasskey, Passkey, PasskeyStore } from './store.ts';

export type RefusalReason =
  | 'malformed'
  | 'challenge_unknown'
  | 'challenge_replayed'
  | 'challenge_expired'
  | 'origin_mismatch'
  | 'rp_id_mismatch'
  | 'unknown_credential'
  | 'wrong_user'
  | 'counter_regressed'
  | 'user_not_verified'
  | 'signature_invalid'
  | 'already_registered';

export type Refused = { ok: false; reason: RefusalReason; credentialId?: string; accountId?: string };

/** The WebAuthn user handle of an account: its id, which names nobody outside the service. */
export const userHandleOf = (accountId: string): string => isoBase64URL.fromUTF8String(accountId);

/** RFC 8176: `hwk` for a key that stays in one device's hardware, `swk` for one that can be copied (synced). */
export const amrOf = (passkey: Pick<Passkey, 'backupEligible' | 'deviceType'>): 'hwk' | 'swk' =>
  passkey.backupEligible || passkey.deviceType === 'multiDevice' ? 'swk' : 'hwk';

export interface CeremonyDeps {
  rp: RelyingParty;
  challenges: PasskeyChallenges;
  passkeys: Pick<PasskeyStore, 'find' | 'list' | 'add' | 'recordUse'>;
}

export async function signInOptions(deps: CeremonyDeps, interactionUid: string): Promise<PublicKeyCredentialRequestOptionsJSON> {
  const challenge = await deps.challenges.issue({ kind: 'sign_in', interactionUid });
  // No allowCredentials: the browser offers the passkeys it holds for this relying party (discoverable).
  return generateAuthenticationOptions({
    rpID: deps.rp.id,
    challenge: isoBase64URL.toBuffer(challenge),
    userVerification: 'required',
    timeout: deps.rp.timeoutSeconds * 1000,
  });
}

export async function registrationOptions(
  deps: CeremonyDeps,
  account: { id: string; email: string; username: string; firstName: string },
): Promise<PublicKeyCredentialCreationOptionsJSON> {
  const userHandle = userHandleOf(account.id);
  const challenge = await deps.challenges.issue({ kind: 'register', accountId: account.id, userHandle });
  const existing = await deps.passkeys.list(account.id);
  return generateRegistrationOptions({
    rpName: deps.rp.name,
    rpID: deps.rp.id,
    userID: isoBase64URL.toBuffer(userHandle),
    // What the phone shows in its list of passkeys: the address the user signs in with.
    userName: account.email,
    userDisplayName: account.firstName || account.username,
    challenge: isoBase64URL.toBuffer(challenge),
    timeout: deps.rp.timeoutSeconds * 1000,
    attestationType: 'none',
    excludeCredentials: existing.map((p) => ({ id: p.id, transports: p.transports })),
    authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
  });
}

/** The browser's answer as JSON, or undefined when it is not one of the expected shape. */
function parseCredential<T extends AuthenticationResponseJSON | RegistrationResponseJSON>(
  json: string,
  field: keyof T['response'],
): T | undefined {
  if (json.length > 20_000) return undefined;
  try {
    const value = JSON.parse(json) as T;
    const response = value?.response as unknown as Record<string, unknown> | undefined;
    if (typeof value?.id !== 'string' || value.type !== 'public-key' || typeof response?.clientDataJSON !== 'string') return undefined;
    if (typeof response[field as string] !== 'string') return undefined;
    return value;
  } catch {
    return undefined;
  }
}

interface Checked {
  clientData: { origin: string; challenge: string };
  purpose: ChallengePurpose;
}

/** The checks every answer goes through before its signature: the challenge and the origin. */
async function checkClientData(deps: CeremonyDeps, clientDataJSON: string, type: string): Promise<Checked | Refused> {
  let clientData;
  try {
    clientData = decodeClientDataJSON(clientDataJSON);
  } catch {
    return { ok: false, reason: 'malformed' };
  }
  if (clientData.type !== type || typeof clientData.challenge !== 'string') return { ok: false, reason: 'malformed' };
  const taken = await deps.challenges.take(clientData.challenge);
  if (!taken.ok) return { ok: false, reason: taken.reason };
  if (!deps.rp.origins.includes(clientData.origin)) return { ok: false, reason: 'origin_mismatch' };
  return { clientData, purpose: taken.purpose };
}

const sameRpId = (rpIdHash: Uint8Array, rpId: string): boolean => Buffer.from(rpIdHash).equals(createHash('sha256').update(rpId).digest());

export type SignedIn = { ok: true; passkey: Passkey; amr: 'hwk' | 'swk' };

/** Checks a sign-in answer for the interaction `interactionUid`; the passkey used, its counter recorded. */
export async function verifySignIn(deps: CeremonyDeps, json: string, interactionUid: string): Promise<SignedIn | Refused> {
  const response = parseCredential<AuthenticationResponseJSON>(json, 'authenticatorData');
  if (!response || typeof response.response.signature !== 'string') return { ok: false, reason: 'malformed' };
  const credentialId = response.id;
  const checked = await checkClientData(deps, response.response.clientDataJSON, 'webauthn.get');
  if ('ok' in checked) return { ...checked, credentialId };
  // A challenge issued for another interaction (or for a registration) is not this sign-in's.
  if (checked.purpose.kind !== 'sign_in' || checked.purpose.interactionUid !== interactionUid)
    return { ok: false, reason: 'challenge_unknown', credentialId };
  let authData;
  try {
    authData = parseAuthenticatorData(isoBase64URL.toBuffer(response.response.authenticatorData));
  } catch {
    return { ok: false, reason: 'malformed', credentialId };
  }
  if (!sameRpId(authData.rpIdHash, deps.rp.id)) return { ok: false, reason: 'rp_id_mismatch', credentialId };
  const passkey = await deps.passkeys.find(credentialId);
  // Removed from the account page or the CLI, or never here: the page tells the browser to forget it.
  if (!passkey) return { ok: false, reason: 'unknown_credential', credentialId };
  const refused = (reason: RefusalReason): Refused => ({ ok: false, reason, credentialId, accountId: passkey.accountId });
  // The user handle is the account the authenticator created the passkey for: it must be the passkey's owner.
  const userHandle = response.response.userHandle;
  if (userHandle !== undefined && userHandle !== userHandleOf(passkey.accountId)) return refused('wrong_user');
  // A counter that does not move forward: a copy of the authenticator is signing (synced passkeys keep 0).
  if ((passkey.counter > 0 || authData.counter > 0) && authData.counter <= passkey.counter) return refused('counter_regressed');
  if (!authData.flags.uv) return refused('user_not_verified');
  let verified;
  try {
    verified = await verifyAuthenticationResponse({
      response,
      expectedChallenge: checked.clientData.challenge,
      expectedOrigin: deps.rp.origins,
      expectedRPID: deps.rp.id,
      requireUserVerification: true,
      credential: {
        id: passkey.id,
        publicKey: isoBase64URL.toBuffer(passkey.publicKey),
        counter: passkey.counter,
        transports: passkey.transports as never,
      },
    });
  } catch {
    return refused('signature_invalid');
  }
  if (!verified.verified) return refused('signature_invalid');
  const { newCounter, credentialBackedUp } = verified.authenticationInfo;
  // Of two answers racing with the same counter, the second finds the counter moved: refused as a clone's.
  if (!(await deps.passkeys.recordUse(passkey.id, passkey.counter, { counter: newCounter, backedUp: credentialBackedUp })))
    return refused('counter_regressed');
  return { ok: true, passkey, amr: amrOf(passkey) };
}

export type Registered = { ok: true; passkey: NewPasskey };

/** Checks a creation answer for `accountId` and stores the new passkey under `name`. */
export async function verifyRegistration(deps: CeremonyDeps, json: string, accountId: string, name: string): Promise<Registered | Refused> {
  const response = parseCredential<RegistrationResponseJSON>(json, 'attestationObject');
  if (!response) return { ok: false, reason: 'malformed' };
  const checked = await checkClientData(deps, response.response.clientDataJSON, 'webauthn.create');
  if ('ok' in checked) return { ...checked, accountId };
  if (checked.purpose.kind !== 'register' || checked.purpose.accountId !== accountId)
    return { ok: false, reason: 'challenge_unknown', accountId };
  let verified;
  try {
    verified = await verifyRegistrationResponse({
      response,
      expectedChallenge: checked.clientData.challenge,
      expectedOrigin: deps.rp.origins,
      expectedRPID: deps.rp.id,
      requireUserVerification: true,
    });
  } catch (error) {
    const rpId = error instanceof Error && /RP ID/i.test(error.message);
    return { ok: false, reason: rpId ? 'rp_id_mismatch' : 'signature_invalid', accountId };
  }
  if (!verified.verified || !verified.registrationInfo) return { ok: false, reason: 'signature_invalid', accountId };
  const { credential, credentialDeviceType, credentialBackedUp } = verified.registrationInfo;
  const passkey: NewPasskey = {
    id: credential.id,
    accountId,
    publicKey: isoBase64URL.fromBuffer(credential.publicKey),
    counter: credential.counter,
    transports: credential.transports ?? response.response.transports ?? [],
    backupEligible: credentialDeviceType === 'multiDevice',
    backedUp: credentialBackedUp,
    deviceType: credentialDeviceType,
    name,
  };
  if (!(await deps.passkeys.add(passkey))) return { ok: false, reason: 'already_registered', accountId, credentialId: credential.id };
  return { ok: true, passkey };
}
