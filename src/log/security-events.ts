// The catalogue of security events: every name a line may carry, with its usual outcome and what it
// means. docs/reference/security-log.md lists the same events; a test checks that the two agree.
export type Outcome = 'success' | 'failure' | 'blocked';

interface EventInfo {
  outcome: Outcome;
  /** One sentence for the documentation and for whoever reads a line. */
  description: string;
}

export const SECURITY_EVENTS = {
  'sign_in.success': {
    outcome: 'success',
    description: 'a user signed in with their password, or with a code sent to their phone (`method`: `sms` or `otp`)',
  },
  'sign_in.failure': {
    outcome: 'failure',
    description: 'a password was refused (sign-in, or the current password asked again), or a disabled account tried to sign in',
  },
  'sign_in.throttled': { outcome: 'blocked', description: 'too many failed sign-ins for one account or from one IP' },
  'mail.throttled': { outcome: 'blocked', description: 'too many e-mails asked for one address or from one IP' },
  'client_auth.failure': {
    outcome: 'failure',
    description: 'an application failed to authenticate at the token, revocation, introspection or PAR endpoint',
  },
  'client_auth.throttled': {
    outcome: 'blocked',
    description: 'too many failed client authentications for one application from one IP, or from one IP',
  },
  'authorization_code.reuse': { outcome: 'failure', description: 'an authorization code was presented again; what it issued is revoked' },
  'refresh_token.reuse': { outcome: 'failure', description: 'a rotated refresh token was presented again outside its grace' },
  'authorization.redirect_held': {
    outcome: 'blocked',
    description: 'an authorization error was shown as a page instead of being sent to an application no operator has verified',
  },
  'authorization.refused': {
    outcome: 'failure',
    description:
      'an authorization request named an unknown `client_id` or a `redirect_uri` the application did not register (`reason`; outside production, the `redirect_uri` received)',
  },
  'grant.revoked': {
    outcome: 'success',
    description: 'a grant and every token under it were revoked (a code or refresh-token reuse, a revocation request)',
  },
  'consent.given': { outcome: 'success', description: 'a user consented to share scopes with an application' },
  'consent.revoked': { outcome: 'success', description: "a user withdrew an application's access" },
  'password.changed': { outcome: 'success', description: 'a user changed their password on the account page' },
  'password.reset': { outcome: 'success', description: 'a password was reset through an e-mailed link' },
  'email.verified': { outcome: 'success', description: 'an e-mail address was verified' },
  'email.changed': { outcome: 'success', description: 'a user moved their account to a new e-mail address through the link sent to it' },
  'profile.changed': { outcome: 'success', description: 'a user changed their username or first name on the account page' },
  'session.ended': {
    outcome: 'success',
    description: 'a user signed out of one device on the account page: this one (`reason: this_device`) or another (`other_device`)',
  },
  'session.ended_everywhere': {
    outcome: 'success',
    description: "a user signed out of every device, and ended every application's grant",
  },
  'application.created': { outcome: 'success', description: 'an application was registered (portal or CLI)' },
  'application.changed': { outcome: 'success', description: "an application's settings were changed (portal or CLI)" },
  'application.secret_rotated': { outcome: 'success', description: "an application's secret was replaced (portal or CLI)" },
  'application.deleted': { outcome: 'success', description: 'an application was deleted (portal or CLI)' },
  'account.created': { outcome: 'success', description: 'an account was created (sign-up or CLI)' },
  'account.disabled': { outcome: 'success', description: 'an administrator disabled an account' },
  'account.enabled': { outcome: 'success', description: 'an administrator enabled an account again' },
  'account.deleted': { outcome: 'success', description: 'an account and everything tied to it were deleted' },
  'account.exported': { outcome: 'success', description: 'the data held about an account was exported' },
  'signing_key.rotated': { outcome: 'success', description: 'a new signing key was published (it signs after the rotation delay)' },
  'signing_key.retired': { outcome: 'success', description: 'a signing key left the JWKS' },
  'fedcm.assertion': {
    outcome: 'success',
    description:
      "the browser's account chooser (FedCM) was given an authorization code for an application, at once or after the consent pop-up",
  },
  'fedcm.continued': {
    outcome: 'success',
    description: 'a FedCM sign-in needed the consent the user had not given yet: the browser opened the consent page in a pop-up',
  },
  'fedcm.refused': {
    outcome: 'blocked',
    description: 'a FedCM request was refused without a code (`reason`: origin, client, challenge, scope, header, sign-in or consent)',
  },
  'fedcm.disconnected': { outcome: 'success', description: "an application's FedCM disconnect ended the user's grant to it" },
  'anti_forgery.rejected': { outcome: 'blocked', description: 'a form post without a valid anti-forgery token was refused' },
  'storage.unavailable': { outcome: 'failure', description: 'Postgres or Redis could not be reached; the client was answered 503' },
  'passkey.added': { outcome: 'success', description: 'a user created a passkey (after a password sign-in, or on the account page)' },
  'passkey.renamed': { outcome: 'success', description: 'a user renamed one of their passkeys on the account page' },
  'passkey.removed': { outcome: 'success', description: 'a passkey was removed (account page or CLI)' },
  'passkey.refused': {
    outcome: 'failure',
    description: 'a new passkey was refused (`reason`: the challenge, the origin, the relying-party id, the attestation)',
  },
  'phone.code_sent': { outcome: 'success', description: 'a one-time code was handed to the SMS or WhatsApp gateway (`reason`: which one)' },
  'phone.throttled': {
    outcome: 'blocked',
    description: 'too many codes asked for one number, one range of numbers or from one IP (`limit`); nothing was sent',
  },
  'phone.budget_exhausted': {
    outcome: 'blocked',
    description: "the day's message budget (phone.dailyBudget) is spent; no code is sent until the next day",
  },
  'phone.gateway_failed': {
    outcome: 'failure',
    description: 'the SMS or WhatsApp gateway could not take a code (`reason`: gateway and why); the user was told',
  },
  'phone.sign_in_refused': {
    outcome: 'blocked',
    description:
      'a right code did not sign in: the number is in its cooling-off period, or the SIM-swap check said yes or could not answer',
  },
  'phone.added': { outcome: 'success', description: 'a user added a verified phone number to their account (the e-mail address is told)' },
  'phone.removed': { outcome: 'success', description: 'a user removed the phone number of their account' },
  'mail.failed': { outcome: 'failure', description: 'an e-mail could not be handed to the mail server' },
  'error.unexpected': { outcome: 'failure', description: 'an unexpected error (logged with its stack; the client sees a generic error)' },
} as const satisfies Record<string, EventInfo>;

export type SecurityEventName = keyof typeof SECURITY_EVENTS;
