// Security events of the admin CLI (an application registered, a secret rotated, a user disabled...).
// A command has no request: its line carries the operating-system user who ran it instead of an IP.
// It goes to the command's stderr, as one JSON line, so that stdout stays the command's output (which
// scripts parse with --json) and the line reaches whatever collects the process's diagnostics.
import { userInfo } from 'node:os';
import { createLogger } from './logger.ts';
import { writeEvent, type SecurityEventFields, type SecurityEventName } from './security-log.ts';

/** Where a command writes its diagnostics (the CLI's `io`). */
export interface CliLogOutput {
  stderr(text: string): void;
}

export function cliEvent(io: CliLogOutput, name: SecurityEventName, fields: SecurityEventFields = {}): void {
  const logger = createLogger({ level: 'info', pretty: false, destination: { write: (line: string) => io.stderr(line) } });
  writeEvent(logger, name, { source: 'cli', actor: osUser(), ...fields });
}

function osUser(): string | undefined {
  try {
    return userInfo().username;
  } catch {
    return undefined; // no entry for this uid (a container's arbitrary user)
  }
}
