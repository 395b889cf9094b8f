// The two kinds of expected failure of the CLI. Both are reported as one message without a stack
// trace; they differ only in the exit code, so that scripts can tell a typo from a refusal.

/** The command line itself is wrong (unknown command or option, missing option): exit 2. */
export class UsageError extends Error {
  override name = 'UsageError';

  /** `helpCommand` is the help to point at, e.g. `signin client --help`. */
  constructor(
    message: string,
    readonly helpCommand = 'signin --help',
  ) {
    super(message);
  }
}

/** The command was understood but cannot be done (duplicate e-mail, unknown client...): exit 1. */
export class CommandError extends Error {
  override name = 'CommandError';
}
