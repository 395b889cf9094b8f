// Usage texts, one per command group, printed by `--help` (exit 0).
import { PASSWORD_MIN_LENGTH } from '../accounts/password-policy.ts';
import { DEFAULT_PORT } from '../config/schema.ts';
const CONFIG_LINE = `  --config PATH   config file (default: $SIGNIN_CONFIG, else ./signin.yaml if there is one,
                  else the development defaults)`;

/** The commands of the top-level help, each with what it does: the columns are aligned from the longest. */
const COMMANDS: ReadonlyArray<readonly [string, string]> = [
  ['init', 'write a new config file with fresh secrets'],
  ['migrate', 'bring the database schema up to date'],
  ['serve', 'run the server (stops gracefully on SIGTERM or SIGINT)'],
  ['user create', 'create an end-user account (password read from stdin)'],
  ['user list', 'list the accounts (--search to filter)'],
  ['user show ACCOUNT', 'show one account'],
  ['user disable ACCOUNT', "refuse its sign-in, end its sessions and its applications' grants"],
  ['user enable ACCOUNT', 'let it sign in again'],
  ['user delete ACCOUNT', 'erase the account and everything tied to it'],
  ['user export ACCOUNT', 'print all the data held about the account, as JSON'],
  ['user verify-email ACCOUNT', 'mark its e-mail address verified (or --resend a link)'],
  ['user passkeys remove ACCOUNT PASSKEY_ID', "remove one of the account's passkeys (signin user show lists them)"],
  ['client create', 'register an application (prints its secret once)'],
  ['client list', 'list the registered applications'],
  ['client show CLIENT_ID', 'show one application'],
  ['client update CLIENT_ID', "change an application's name, description, redirect URIs or scopes"],
  ['client delete CLIENT_ID', 'delete an application'],
  ['client rotate-secret CLIENT_ID', 'issue a new secret (the old one stops working)'],
  ['client verify CLIENT_ID', 'mark an application as checked by an operator (--remove to undo)'],
  ['client fedcm-origins CLIENT_ID', "list or set the origins that may use the browser's account chooser (FedCM)"],
  ['keys list', 'list the signing keys and their state'],
  ['keys rotate', 'publish a new signing key (signs after keys.rotationDelaySeconds, or --now)'],
  ['keys retire KID', 'take a key that no longer signs out of the JWKS'],
  ['fedcm well-known', 'print the /.well-known/web-identity file to place at the root domain'],
];

/** Rows of two columns, the second starting two spaces after the longest first one. */
export function columns(rows: ReadonlyArray<readonly [string, string]>, indent = '  '): string {
  const width = Math.max(...rows.map(([left]) => left.length)) + 2;
  return rows.map(([left, right]) => `${indent}${left.padEnd(width)}${right}`).join('\n');
}

export const MAIN_HELP = `Usage: signin <command> [options]

Administration of the sign-in service.

Commands:
${columns(COMMANDS)}

ACCOUNT is an account's id, e-mail address or username.
Run 'signin <command> --help' for the options of a command; 'signin --version' for the version.
Exit codes: 0 done, 1 refused (the message says why), 2 bad usage or bad config file.
`;

export const SERVE_HELP = `Usage: signin serve [--config PATH] [--port N]

Runs the sign-in service's server. On SIGTERM or SIGINT it drains first: /readyz answers 503 for
shutdown.drainSeconds (default 10 in production, 0 otherwise) while requests are still served, then
it stops listening, lets the requests in flight finish, closes the storage and exits 0. A second
signal skips the rest of the drain.

Options:
  --port N         port to listen on (default: $PORT, else the config file's port)
${CONFIG_LINE}
`;

export const INIT_HELP = `Usage: signin init [--config PATH] [--issuer URL] [--port N] [--keys-file PATH] [--force]

Writes a config file with fresh random secrets.

Options:
  --config PATH     file to write (default: $SIGNIN_CONFIG, else ./signin.yaml)
  --issuer URL      public URL of the service (default: http://localhost:${DEFAULT_PORT})
  --port N          port of the standalone server (default: the issuer's port if it names one,
                    else ${DEFAULT_PORT})
  --keys-file PATH  keep the signing keys in this JWKS file (generated now) instead of the database
  --force           overwrite an existing config file (its secrets are replaced)
`;

export const MIGRATE_HELP = `Usage: signin migrate [--config PATH]

Applies the database migrations not applied yet. Safe to run again.

Options:
${CONFIG_LINE}
`;

export const USER_HELP = `Usage:
  signin user create --email E --username U --first-name F [--verified] [--json]
  signin user list [--search S] [--json]
  signin user show ACCOUNT [--json]
  signin user disable ACCOUNT
  signin user enable ACCOUNT
  signin user delete ACCOUNT [--with-applications | --keep-applications]
  signin user export ACCOUNT
  signin user verify-email ACCOUNT [--resend [--lang fr|en]]
  signin user passkeys remove ACCOUNT PASSKEY_ID

ACCOUNT is an account's id, e-mail address or username.

create makes an account under the rules of the sign-up page. The password is the first line of
standard input (prompted without echo on a terminal): at least ${PASSWORD_MIN_LENGTH} characters, not a
common password, not the account's e-mail, username or first name.

  printf '%s\\n' "$PASSWORD" | signin user create --email ada@example.com --username ada --first-name Ada

disable refuses the account's password at every sign-in form (the user sees that the account is
disabled), ends its sessions and revokes every grant and token its applications hold. enable lets it
sign in again. delete erases the account with its sessions, grants, tokens, consents, e-mail links
and rate-limit counters; an account that registered applications in the developer portal is kept
until you say what becomes of them. export prints everything held about the account (profile,
consents by application, sessions, applications owned, passkeys with their public keys; no secret), for a
right-of-access request. show lists the account's passkeys with their ids; passkeys remove removes one
(a lost phone): the password and the other passkeys stay.

Options:
  --email E              e-mail address (unique, case-insensitive)
  --username U           username (unique, case-insensitive): 3 to 32 letters, digits, . _ or -
  --first-name F         first name
  --verified             mark the e-mail address as already verified
  --search S             accounts whose e-mail, username or first name contains S
  --with-applications    delete the applications the account owns too (their users lose access)
  --keep-applications    keep them, without an owner (manage them with signin client)
  --resend               send a new verification link instead of marking the address verified
  --lang L               language of that e-mail (default: languages.default)
  --json                 print JSON
${CONFIG_LINE}
`;

export const CLIENT_HELP = `Usage:
  signin client create --name N --description D --type web|spa|mobile|server
                       --redirect-uri URI [--redirect-uri URI ...] --scopes "openid email profile"
                       (--type server: no --redirect-uri and no --scopes)
  signin client list
  signin client show CLIENT_ID
  signin client update CLIENT_ID [--name N] [--description D] [--redirect-uri URI ...] [--scopes "S ..."]
  signin client delete CLIENT_ID
  signin client rotate-secret CLIENT_ID [--overlap none|1h|24h]
  signin client verify CLIENT_ID [--remove]
  signin client fedcm-origins CLIENT_ID [--origin URL ...] [--clear]

Registers and manages applications, like the developer portal. The client secret is printed once,
at creation or rotation: only its hash is stored. update changes only the options given; the
type is fixed at registration, and --redirect-uri and --scopes replace the whole list.
rotate-secret --overlap 1h (or 24h) keeps the old secret working that long besides the new one,
for a rolling deployment; by default (none) it stops working at once.

Options:
  --name N            name shown to users on the consent screen
  --description D     what the application does
  --type T            web, spa, mobile or server; server: a backend calling for itself with the
                      client_credentials grant (no user, no redirect URI, no scope)
  --redirect-uri URI  an exact redirect URI, in canonical form (repeat for several); https; http only
                      on localhost, 127.0.0.1 or [::1], for spa and mobile in development; mobile apps
                      may use a reverse-domain scheme (com.example.app:/cb)
  --scopes "S ..."    scopes the application may request, separated by spaces or commas;
                      openid and email are required, profile and phone are optional
  --logo-uri URL      https URL of the logo shown on the consent screen once the application is verified
  --policy-uri URL    https URL of its privacy policy; --tos-uri URL: of its terms of service
                      (an empty value removes a link)
  --remove            with verify: the application is no longer marked verified
  --json              print JSON

verify marks the application as checked by an operator (who publishes it, on which redirect hosts):
the consent screen then shows its logo and its owner's e-mail domain instead of "application non
vérifiée", and a spa whose redirect URIs are all https has its consent remembered instead of asked
every time. A new name, logo or redirect host ends it.

fedcm-origins lists the web origins from which the application may ask for a sign-in through the
browser's account chooser (FedCM): those of its https redirect URIs, and the added ones. --origin
replaces the added ones (repeat it; https, no path: https://app.example.org); --clear removes them.
${CONFIG_LINE}
`;

export const KEYS_HELP = `Usage:
  signin keys list [--json]
  signin keys rotate [--alg RS256|ES256|EdDSA ...] [--delay SECONDS | --now [--retire-old]] [--json]
  signin keys retire KID [--force]

The keys that sign ID tokens, in the database or the JWKS file of the config (keys.source).
rotate adds a new key per algorithm: published in the JWKS at once, it signs only after
keys.rotationDelaySeconds (default one day), so that applications caching the JWKS know it first.
Running instances pick it up without a restart. The previous key then only verifies; retire it once
the ID tokens it signed have expired (ttl.idToken after it stopped signing): it leaves the JWKS.

rotate --now replaces a key in one command (a leaked key): the new key signs at once, and a key that
a rotation had scheduled is cancelled (retired before it ever signed). With --retire-old the key it
replaces leaves the JWKS at once too: the ID tokens it signed stop verifying, and users of
applications that check them must sign in again. Without it, the old key still verifies its tokens.

States: active (signs), next (published, signs from a set time), previous (verifies only), retired.

Options:
  --alg A          rotate only this algorithm (repeat for several; default: every one in use)
  --delay SECONDS  sign after this delay instead of keys.rotationDelaySeconds (0: at once)
  --now            sign with the new key at once, cancelling a rotation already scheduled
  --retire-old     with --now: take the replaced key out of the JWKS at once; its tokens stop verifying
  --force          retire a previous key before its ID tokens have expired (a compromised key)
  --json           print JSON
${CONFIG_LINE}
`;
