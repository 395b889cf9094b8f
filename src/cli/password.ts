// Reads a new account's password: the first line of stdin, so that it never appears in the command
// line (shell history, `ps`). On a terminal it is prompted for without echo.
import { StringDecoder } from 'node:string_decoder';
import { CommandError } from './command-errors.ts';
import type { CliIo } from './io.ts';

export async function readNewPassword(io: CliIo): Promise<string> {
  const stdin = io.stdin;
  const password =
    typeof stdin === 'string' ? firstLine(stdin) : isTerminal(stdin) ? await promptHidden(stdin, io) : await readFirstLine(stdin);
  if (password === '') {
    throw new CommandError(
      `no password given: write it as the first line of standard input, e.g. printf '%s\\n' "$PASSWORD" | signin user create ...`,
    );
  }
  // Whether it is strong enough is the account rules' decision (the store applies them), not the reader's.
  return password;
}

// Only the line ending is removed: spaces are legitimate parts of a password.
const firstLine = (text: string): string => text.split(/\r?\n/, 1)[0] ?? '';

type Terminal = NodeJS.ReadableStream & { isTTY: true; setRawMode(raw: boolean): unknown };

function isTerminal(stream: NodeJS.ReadableStream): stream is Terminal {
  const s = stream as Partial<Terminal>;
  return s.isTTY === true && typeof s.setRawMode === 'function';
}

async function readFirstLine(stream: NodeJS.ReadableStream): Promise<string> {
  const decoder = new StringDecoder('utf8');
  let text = '';
  for await (const chunk of stream) {
    text += typeof chunk === 'string' ? chunk : decoder.write(chunk as Buffer);
    // Stop at the first newline: the rest of stdin is not ours to consume.
    if (/\n/.test(text)) return firstLine(text);
  }
  return firstLine(text + decoder.end());
}

function promptHidden(stdin: Terminal, io: CliIo): Promise<string> {
  return new Promise((resolve, reject) => {
    io.stderr('Password: ');
    let value = '';
    const finish = (error?: Error): void => {
      stdin.removeListener('data', onData);
      stdin.setRawMode(false);
      stdin.pause();
      io.stderr('\n');
      if (error) reject(error);
      else resolve(value);
    };
    const onData = (chunk: Buffer | string): void => {
      for (const ch of chunk.toString()) {
        if (ch === '\r' || ch === '\n') return finish();
        if (ch === '\u0003' || ch === '\u0004') return finish(new CommandError('cancelled'));
        if (ch === '\u007f' || ch === '\b') value = [...value].slice(0, -1).join('');
        else value += ch;
      }
    };
    stdin.setRawMode(true);
    stdin.on('data', onData);
    stdin.resume();
  });
}
