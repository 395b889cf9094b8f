// A return path taken from a query string or a form: only a path on this service, never another origin
// (`//evil.example`, `/\evil.example` and `https://...` are refused), so that it cannot be an open redirect.
export function safeReturnPath(value: unknown, fallback = '/account'): string {
  if (typeof value !== 'string' || value.length > 2048) return fallback;
  if (!value.startsWith('/') || value.startsWith('//') || value.includes('\\')) return fallback;
  if (/[\u0000-\u001f]/.test(value)) return fallback;
  return value;
}
