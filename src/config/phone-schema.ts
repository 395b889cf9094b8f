// The `phone` section of the config file: sign-in with a phone number and a one-time code (src/phone/).
// Off by default. Secrets (the gateway's client secret or token, the SIM-swap hook's token) are written
// as `${NAME}`, read from the environment (interpolate.ts), never in the file itself.
import { z } from 'zod';

/** The eight countries of the West African monetary union (UEMOA), by their E.164 country codes. */
export const UEMOA_COUNTRY_CODES = ['+221', '+223', '+225', '+226', '+227', '+228', '+229', '+245'];

const perWindow = (points: number, seconds: number) =>
  z
    .strictObject({
      points: z.number().int().min(1).default(points).describe('How many are allowed within the window.'),
      windowSeconds: z.number().int().min(1).default(seconds).describe('Length of the window, in seconds.'),
    })
    .prefault({});

const https = z.url({ protocol: /^https?$/ });

const orange = z
  .strictObject({
    tokenUrl: https.default('https://api.orange.com/oauth/v3/token').describe("Orange's OAuth 2 token endpoint (client credentials)."),
    apiUrl: https
      .default('https://api.orange.com')
      .describe('Base URL of the SMS API; messages go to `/smsmessaging/v1/outbound/{senderAddress}/requests` under it.'),
    clientId: z.string().min(1).describe('Client id of the application registered with Orange Developer.'),
    clientSecret: z.string().min(1).describe('Its client secret; write `${NAME}` to read it from the environment.'),
    senderAddress: z
      .string()
      .regex(/^tel:\+\d{6,15}$/, 'must be tel:+ followed by the digits of the number, e.g. tel:+2250000')
      .describe("The sender's number as Orange gives it, e.g. `tel:+2250000`."),
    senderName: z.string().min(1).max(11).optional().describe('The sender name shown on the phone, when Orange has approved one.'),
  })
  .describe('The Orange SMS API: an OAuth 2 client-credentials token, then one outbound SMS request per code.');

const whatsapp = z
  .strictObject({
    apiUrl: https.default('https://graph.facebook.com').describe('Base URL of the Graph API.'),
    apiVersion: z
      .string()
      .regex(/^v\d+\.\d+$/, 'must be a Graph API version such as v21.0')
      .default('v21.0')
      .describe('Graph API version in the request path.'),
    phoneNumberId: z
      .string()
      .regex(/^\d+$/, 'must be the digits of the WhatsApp phone number id')
      .describe('The sending WhatsApp phone number id.'),
    accessToken: z.string().min(1).describe('A system-user access token; write `${NAME}` to read it from the environment.'),
    template: z.string().min(1).describe('Name of the approved authentication template (one-time password, copy-code button).'),
  })
  .describe('The WhatsApp Business Cloud API: an authentication template message carrying the code.');

const webhook = z
  .strictObject({
    url: https.describe(
      'Receives `POST {"to": "+225…", "text": "…", "code": "…", "locale": "fr", "channel": "sms"}` as JSON; any 2xx is a success.',
    ),
    bearerToken: z
      .string()
      .min(16)
      .optional()
      .describe('Sent as `Authorization: Bearer <token>`; write `${NAME}` to read it from the environment.'),
    channel: z
      .enum(['sms', 'whatsapp'])
      .default('sms')
      .describe('What the provider sends: `sms` (amr `sms`) or `whatsapp` (amr `otp`), and how the pages name it.'),
  })
  .describe('Any other provider, behind an HTTPS webhook of the deployment.');

export const phoneSchema = z
  .strictObject({
    enabled: z.boolean().default(false).describe('Offers sign-in with a phone number and a code, and phone numbers on the account page.'),
    gateway: z
      .enum(['orange', 'whatsapp', 'webhook'])
      .optional()
      .describe('Which gateway sends the codes; its section (`phone.orange`, `phone.whatsapp` or `phone.webhook`) is required.'),
    orange: orange.optional(),
    whatsapp: whatsapp.optional(),
    webhook: webhook.optional(),
    allowedCountryCodes: z
      .array(z.string().regex(/^\+\d{1,3}$/, 'must be + and a country calling code, e.g. +225'))
      .min(1)
      .default(UEMOA_COUNTRY_CODES)
      .describe('Country calling codes a code may be sent to (the eight UEMOA countries by default); any other number is refused.'),
    limits: z
      .strictObject({
        perNumber: perWindow(3, 3600).describe('Codes asked for one number.'),
        perIp: perWindow(10, 3600).describe('Codes asked from one client IP.'),
        perPrefix: perWindow(20, 3600).describe(
          'Codes asked for numbers sharing all but their last four digits (a range of 10,000 numbers).',
        ),
      })
      .prefault({})
      .describe('Limits on codes asked for, counted whether or not the number is on an account.'),
    dailyBudget: z
      .number()
      .int()
      .min(1)
      .default(500)
      .describe('Messages sent per day (UTC) at most, all instances together; past it no code is sent until the next day.'),
    coolingOffHours: z
      .number()
      .int()
      .min(0)
      .max(24 * 30)
      .default(72)
      .describe('A number newly added does not sign in alone for this many hours; the password still does.'),
    simSwap: z
      .strictObject({
        url: https.describe('A CAMARA SIM Swap `check` endpoint: `POST {phoneNumber, maxAge}` answers `{swapped}`.'),
        bearerToken: z
          .string()
          .min(1)
          .optional()
          .describe('Sent as `Authorization: Bearer <token>`; write `${NAME}` to read it from the environment.'),
        maxAgeHours: z
          .number()
          .int()
          .min(1)
          .max(2400)
          .default(72)
          .describe('A SIM changed within this many hours refuses the code sign-in.'),
      })
      .optional()
      .describe("The mobile operator's SIM-swap check, asked before a code signs anyone in."),
  })
  .refine((p) => !p.enabled || p.gateway !== undefined, {
    message: 'phone.gateway is required when phone.enabled is true',
    path: ['gateway'],
  })
  .refine((p) => !p.gateway || p[p.gateway] !== undefined, {
    message: 'the section of the chosen gateway (phone.orange, phone.whatsapp or phone.webhook) is required',
    path: ['gateway'],
  })
  .prefault({})
  .describe('Sign-in with a phone number and a one-time code sent by SMS or WhatsApp (docs/guides/phone-sign-in.md).');

export type PhoneConfig = z.output<typeof phoneSchema>;
