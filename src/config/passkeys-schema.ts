// The `passkeys` section of the config file: passkeys are on unless switched off, and their relying-party
// id and origins follow the issuer unless the pages live on another host (src/passkeys/relying-party.ts).
import { z } from 'zod';

export const passkeysSchema = z
  .strictObject({
    enabled: z
      .boolean()
      .default(true)
      .describe(
        "`false` hides the passkey button, the offer after a password sign-in and the account page's passkeys; existing passkeys are kept.",
      ),
    rpId: z
      .string()
      .regex(/^[a-z0-9.-]+$/i, 'must be a host name, without a scheme, port or path')
      .optional()
      .describe(
        "The WebAuthn relying-party id: a host name, the issuer's by default. A parent domain (`example.org` for `login.example.org`) lets passkeys work on its other hosts too; it cannot be changed later without every passkey ceasing to work.",
      ),
    origins: z
      .array(z.url({ protocol: /^https?$/ }).refine((u) => URL.parse(u)?.origin === u, 'must be an origin: scheme, host and port only'))
      .min(1)
      .optional()
      .describe(
        "The origins a passkey ceremony may come from: the issuer's by default. Each host must be the relying-party id or below it.",
      ),
    timeoutSeconds: z
      .number()
      .int()
      .min(1)
      .max(600)
      .default(300)
      .describe('How long a passkey challenge stays valid, and how long the browser waits for the user to answer it.'),
  })
  .prefault({})
  .describe('Passkeys (WebAuthn): sign in with a fingerprint, a face or a PIN instead of a password.');
