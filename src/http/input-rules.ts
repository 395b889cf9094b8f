// What text the service accepts from a request, before anything reads it: percent-encoding that decodes
// to valid UTF-8 (no `%ff`, no encoded lone surrogate, no malformed `%zz`), and no control character.
// Postgres and PGlite refuse a NUL in text and JSONB, so a NUL that reached a query or a stored
// parameter used to fail as a 500; here it is a 400 before it reaches the engine or a store.
//
// Pure functions, used by the input guard in front of the engine and the pages (input-guard.ts) and by
// the pages' form reader (src/pages/form-body.ts).

import { isAscii } from 'node:buffer';

export type InputProblem = 'encoding' | 'control' | 'tooLong' | 'repeated' | 'tooLarge' | 'contentType' | 'mixed';

export class InputError extends Error {
  override name = 'InputError';
  constructor(
    readonly problem: InputProblem,
    /** The parameter at fault, when there is one (its name only: never its value). */
    readonly parameter?: string,
  ) {
    super(parameter ? `${problem}: ${parameter}` : problem);
  }
}

// C0 controls, DEL and C1 controls. Forms keep tab and line breaks (a textarea); protocol parameters do not.
const ANY_CONTROL = /[\u0000-\u001f\u007f-\u009f]/u;
const CONTROL_BUT_LINE_BREAKS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/u;

export interface TextRules {
  /** Tab, CR and LF are allowed (form fields); any other control character never is. */
  lineBreaks?: boolean;
}

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** The bytes of raw request text: what came off the wire (Node gives a request target as latin1). */
function bytesOf(raw: string | Buffer): Buffer {
  if (Buffer.isBuffer(raw)) return raw;
  return /^[\u0000-\u00ff]*$/u.test(raw) ? Buffer.from(raw, 'latin1') : Buffer.from(raw, 'utf8');
}

const HEX = /^[0-9a-f]{2}$/i;

/** Percent-decodes `bytes` (and `+` as a space when `plusIsSpace`), then decodes UTF-8 strictly. */
function decodeComponent(bytes: Buffer, plusIsSpace: boolean, name?: string): string {
  // ASCII with nothing to decode (every token, code, id and secret): the text is the bytes, found by
  // three native scans instead of the byte-by-byte copy below.
  if (bytes.indexOf(0x25 /* % */) === -1 && !(plusIsSpace && bytes.indexOf(0x2b /* + */) !== -1) && isAscii(bytes)) {
    return bytes.toString('latin1');
  }
  const out = Buffer.alloc(bytes.length);
  let length = 0;
  for (let i = 0; i < bytes.length; i += 1) {
    const byte = bytes[i];
    if (byte === 0x25 /* % */) {
      const hex = bytes.subarray(i + 1, i + 3).toString('latin1');
      if (!HEX.test(hex)) throw new InputError('encoding', name);
      out[length] = Number.parseInt(hex, 16);
      i += 2;
    } else {
      out[length] = plusIsSpace && byte === 0x2b /* + */ ? 0x20 : byte;
    }
    length += 1;
  }
  try {
    return utf8.decode(out.subarray(0, length));
  } catch {
    throw new InputError('encoding', name);
  }
}

/** Throws InputError('control') when `text` holds a control character the rules do not allow. */
export function assertNoControl(text: string, rules: TextRules = {}, name?: string): void {
  if ((rules.lineBreaks ? CONTROL_BUT_LINE_BREAKS : ANY_CONTROL).test(text)) throw new InputError('control', name);
}

/**
 * The fields of an application/x-www-form-urlencoded text (a query string or a form body), in order,
 * repeated names kept. Throws InputError on malformed or invalid UTF-8 encoding and on control characters.
 */
export function decodeForm(raw: string | Buffer, rules: TextRules = {}): Array<[string, string]> {
  const plain = plainText(raw);
  if (plain !== undefined) return splitPlain(plain);
  const bytes = bytesOf(raw);
  const fields: Array<[string, string]> = [];
  let start = 0;
  while (start <= bytes.length) {
    let end = bytes.indexOf(0x26 /* & */, start);
    if (end === -1) end = bytes.length;
    const segment = bytes.subarray(start, end);
    start = end + 1;
    if (segment.length === 0) continue;
    const equals = segment.indexOf(0x3d /* = */);
    const name = decodeComponent(equals === -1 ? segment : segment.subarray(0, equals), true);
    // The name is checked first: the error may then name it.
    assertNoControl(name, {}, undefined);
    const value = equals === -1 ? '' : decodeComponent(segment.subarray(equals + 1), true, name);
    assertNoControl(value, rules, name);
    if (name) fields.push([name, value]);
  }
  return fields;
}

// Printable ASCII without `%` or `+`: text with nothing to decode and no control character, as the
// bodies and queries of applications' protocol requests are (tokens, codes, ids, secrets, scopes).
const PLAIN_FORM = /^[\u0020-\u0024\u0026-\u002a\u002c-\u007e]*$/;
// The same with `+`, which a path keeps as it is.
const PLAIN_PATH = /^[\u0020-\u0024\u0026-\u007e]*$/;

/** The text of `raw` when it is plain (PLAIN_FORM): decoding it would give it back unchanged. */
function plainText(raw: string | Buffer): string | undefined {
  const text = typeof raw === 'string' ? raw : isAscii(raw) ? raw.toString('latin1') : undefined;
  return text !== undefined && PLAIN_FORM.test(text) ? text : undefined;
}

/** decodeForm's fields of a plain text: split on `&` and `=` and nothing more, one pass, no copy per byte. */
function splitPlain(text: string): Array<[string, string]> {
  const fields: Array<[string, string]> = [];
  for (const segment of text.split('&')) {
    const equals = segment.indexOf('=');
    const name = equals === -1 ? segment : segment.slice(0, equals);
    if (name) fields.push([name, equals === -1 ? '' : segment.slice(equals + 1)]);
  }
  return fields;
}

/** One form-encoded value (`+` as a space), decoded and checked like a field of decodeForm. */
export function decodeFormValue(raw: string | Buffer, rules: TextRules = {}, name?: string): string {
  const value = decodeComponent(bytesOf(raw), true, name);
  assertNoControl(value, rules, name);
  return value;
}

/** A request path, decoded: each segment as a router would see it. Throws InputError like decodeForm. */
export function decodePath(rawPath: string): string {
  if (PLAIN_PATH.test(rawPath)) return rawPath;
  const path = decodeComponent(bytesOf(rawPath), false);
  assertNoControl(path);
  return path;
}
