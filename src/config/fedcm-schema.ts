// The `fedcm` section of the config file: the browser's own account chooser (FedCM) is offered whenever the
// issuer is https (browsers offer FedCM only to secure origins), unless switched off here.
import { z } from 'zod';

export const fedcmSchema = z
  .strictObject({
    enabled: z
      .boolean()
      .default(true)
      .describe(
        '`false` turns off the FedCM endpoints under `/fedcm/`, `/.well-known/web-identity`, the FedCM cookie and the `Set-Login` headers. With a plain-http issuer FedCM is off whatever this says.',
      ),
  })
  .prefault({})
  .describe("Sign-in through the browser's account chooser (FedCM, docs/guides/fedcm.md).");

/** Whether FedCM is offered by a service with this configuration. */
export const fedcmOn = (config: { issuer: string; fedcm?: { enabled: boolean } }): boolean =>
  (config.fedcm?.enabled ?? true) && config.issuer.startsWith('https://');
