// A minimal stand-in for a Koa context: what renderPage reads and writes, nothing more.
export interface FakeContext {
  headers: Record<string, string>;
  status: number;
  type: string;
  body: unknown;
  mountPath?: string;
  set(field: string | Record<string, string>, value?: string): void;
  get(field: string): string;
  cookies: { get(name: string, options?: unknown): string | undefined };
}

export function fakeContext(request: { acceptLanguage?: string; cookie?: string; query?: Record<string, string> } = {}): FakeContext {
  const headers: Record<string, string> = {};
  return {
    headers,
    status: 404,
    type: '',
    body: undefined,
    set(field, value) {
      if (typeof field === 'string') headers[field] = value ?? '';
      else Object.assign(headers, field);
    },
    get(field) {
      return field.toLowerCase() === 'accept-language' ? (request.acceptLanguage ?? '') : '';
    },
    cookies: { get: (name) => (name === 'lang' ? request.cookie : undefined) },
    ...(request.query ? { query: request.query } : {}),
  };
}
