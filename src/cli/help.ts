// Usage texts, one per command group, printed by `--help` (exit 0).
import { PASSWORD_MIN_LENGTH } from '../accounts/password-policy.ts';
import { DEFAULT_PORT } from '../config/schema.ts';
const CONFIG_LINE = `  --config PATH   config file (default: $SIGNIN_CONFIG, else the development defaults)`;

export const MAIN_HELP = `Usage: signin <command> [options]

Administration of the sign-in service.

Commands:
  init                      write a new config file with fresh secrets
  migrate                   bring the database schema up to date
  user create               create an end-user account (password read from stdin)
  client create             register an application (prints its secret once)
  client list               list the registered applications
  client show CLIENT_ID     show one application
  client update CLIENT_ID   change an application's name, description, redirect URIs or scopes
  client delete CLIENT_ID   delete an application
  client rotate-secret CLIENT_ID
                            issue a new secret (the old one stops working)

Run 'signin <command> --help' for the options of a command.
Exit codes: 0 done, 1 refused (the message says why), 2 bad usage or bad config file.
`;

export const INIT_HELP = `Usage: signin init [--config PATH] [--issuer URL] [--port N] [--keys-file PATH] [--force]

Writes a config file with fresh random secrets.

Options:
  --config PATH     file to write (default: $SIGNIN_CONFIG, else ./signin.yaml)
  --issuer URL      public URL of the service (default: http://localhost:3000)
  --port N          port of the standalone server (default: ${DEFAULT_PORT})
  --keys-file PATH  keep the signing keys in this JWKS file (generated now) instead of the database
  --force           overwrite an existing config file (its secrets are replaced)
`;

export const MIGRATE_HELP = `Usage: signin migrate [--config PATH]

Applies the database migrations not applied yet. Safe to run again.

Options:
${CONFIG_LINE}
`;

export const USER_HELP = `Usage: signin user create --email E --username U --first-name F [--verified] [--json] [--config PATH]

Creates an end-user account, under the rules of the sign-up page. The password is the
first line of standard input (prompted without echo on a terminal): at least ${PASSWORD_MIN_LENGTH}
characters, not a common password, not the account's e-mail, username or first name.

  printf '%s\\n' "$PASSWORD" | signin user create --email ada@example.com --username ada --first-name Ada

Options:
  --email E        e-mail address (unique, case-insensitive)
  --username U     username (unique, case-insensitive): 3 to 32 letters, digits, . _ or -
  --first-name F   first name
  --verified       mark the e-mail address as already verified
  --json           print the account as JSON
${CONFIG_LINE}
`;

export const CLIENT_HELP = `Usage:
  signin client create --name N --description D --type web|spa|mobile|server
                       --redirect-uri URI [--redirect-uri URI ...] --scopes "openid email profile"
  signin client list
  signin client show CLIENT_ID
  signin client update CLIENT_ID [--name N] [--description D] [--redirect-uri URI ...] [--scopes "S ..."]
  signin client delete CLIENT_ID
  signin client rotate-secret CLIENT_ID

Registers and manages applications, like the developer portal. The client secret is printed once,
at creation or rotation: only its hash is stored. update changes only the options given; the
type is fixed at registration, and --redirect-uri and --scopes replace the whole list.

Options:
  --name N            name shown to users on the consent screen
  --description D     what the application does
  --type T            web, spa, mobile or server
  --redirect-uri URI  an exact redirect URI (repeat for several); https, except http://localhost
                      and http://127.0.0.1; mobile apps may use a reverse-domain scheme (com.example.app:/cb)
  --scopes "S ..."    scopes the application may request, separated by spaces or commas;
                      openid and email are required, profile is optional
  --json              print JSON
${CONFIG_LINE}
`;
