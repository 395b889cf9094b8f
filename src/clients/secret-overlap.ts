// A new client secret may leave the one it replaces valid for a chosen overlap, so that an application
// running on several servers rolls over to the new secret one server at a time (migration 022). The
// choices are few on purpose: none, an hour, a day. The end of an overlap is judged by the service's
// clock (Date), on every instance alike.

/** The overlaps an owner or an operator may choose, by the name the portal's form and the CLI use. */
export const SECRET_OVERLAPS = { none: 0, '1h': 3600, '24h': 86_400 } as const;

export type SecretOverlap = keyof typeof SECRET_OVERLAPS;

export const isSecretOverlap = (value: unknown): value is SecretOverlap =>
  typeof value === 'string' && Object.hasOwn(SECRET_OVERLAPS, value);

/** The secret a rotation replaced, still accepted until `expiresAt`. */
export interface PreviousSecret {
  hash: string;
  expiresAt: Date;
}

/** When the replaced secret stops working, for an overlap starting `now`; null for none. */
export function overlapEnd(overlap: SecretOverlap, now = Date.now()): Date | null {
  const seconds = SECRET_OVERLAPS[overlap];
  return seconds > 0 ? new Date(now + seconds * 1000) : null;
}

/** The previous secret while its overlap lasts; undefined once it has ended (or when there is none). */
export function livePreviousSecret(previous: PreviousSecret | null | undefined, now = Date.now()): PreviousSecret | undefined {
  return previous && previous.expiresAt.getTime() > now ? previous : undefined;
}
