// The hostile values, each as it travels in a URL or a form body (already percent-encoded), and the
// request-level abuses every endpoint is tried with. Every one must meet a well-formed refusal: never a
// 5xx, never a stack trace.

export interface BadValue {
  name: string;
  /** The value as sent, percent-encoding included. */
  raw: string;
  /** How a field carrying it is answered: refused (4xx), or only "no 5xx, well formed" (the field may be ignored). */
  refused: boolean;
}

export const BAD_VALUES: readonly BadValue[] = [
  { name: 'NUL', raw: 'a%00b', refused: true },
  { name: '%ff (invalid UTF-8)', raw: 'a%ffb', refused: true },
  { name: 'lone surrogate (UTF-8 of U+D800)', raw: 'a%ED%A0%80b', refused: true },
  { name: 'malformed escape', raw: 'a%zzb', refused: true },
  { name: 'escape character', raw: 'a%1Bb', refused: true },
  // Within what Node's HTTP server reads of a request line (16 KB), beyond any one value's length.
  { name: '12 KB', raw: 'a'.repeat(12 * 1024), refused: true },
  // Beyond it in a URL: Node's HTTP server refuses the request itself (431, or a reset connection).
  { name: '64 KB', raw: 'a'.repeat(64 * 1024), refused: true },
];

/** A field sent twice: refused by the protocol endpoints; a page reads the first and answers as usual. */
export const REPEATED = 'repeated';

/** Bodies that are not a form: each endpoint that takes a body is tried with them. */
export const ODD_BODIES = [
  { name: 'JSON body', type: 'application/json', body: '{"client_id":"a\\u0000b","email":"\\ud800@example.org","password":["x"]}' },
  { name: 'empty form body', type: 'application/x-www-form-urlencoded', body: '' },
  {
    name: 'multipart body',
    type: 'multipart/form-data; boundary=x',
    body: '--x\r\nContent-Disposition: form-data; name="email"\r\n\r\na\r\n--x--\r\n',
  },
] as const;

/** Methods no endpoint answers. */
export const WRONG_METHODS = ['PUT', 'DELETE', 'PATCH'] as const;

/** The RFC 6749 (and RFC 6750, RFC 7009) error codes a protocol endpoint may answer with. */
export const OAUTH_ERRORS = new Set([
  'invalid_request',
  'invalid_client',
  'invalid_grant',
  'unauthorized_client',
  'unsupported_grant_type',
  'invalid_scope',
  'invalid_token',
  'insufficient_scope',
  'unsupported_token_type',
  'temporarily_unavailable',
  'unsupported_response_type',
  'unsupported_response_mode',
]);
