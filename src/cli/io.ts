// What a command may touch of the outside world. Passing it in (instead of using `process`) lets the
// tests drive every command in-process and read what it printed.
export interface CliIo {
  /** A stream (the real stdin) or, in tests, the whole input as a string. */
  stdin: NodeJS.ReadableStream | string;
  /** Raw writers: they add nothing, not even a newline. */
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  env: NodeJS.ProcessEnv;
}

/** A command gets its own arguments (after `signin <group> [<action>]`) and returns the exit code. */
export type Command = (args: string[], io: CliIo) => Promise<number>;
