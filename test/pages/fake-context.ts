// A minimal stand-in for a Koa context: what renderPage reads and writes, nothing more. Pages render
// through the real views middleware, as they do in the service.
import { pageViews } from '../../src/pages/views.ts';

export interface FakeContext {
  headers: Record<string, string>;
  status: number;
  type: string;
  body: unknown;
  mountPath?: string;
  set(field: string | Record<string, string>, value?: string): void;
  get(field: string): string;
  cookies: { get(name: string, options?: unknown): string | undefined };
  render?: (view: string, locals?: object) => Promise<unknown>;
}

export function fakeContext(request: { acceptLanguage?: string; cookie?: string; query?: Record<string, string> } = {}): FakeContext {
  const headers: Record<string, string> = {};
  const ctx: FakeContext = {
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
  // koa-views' documented way to extend a context (`app.context.render = views(root, opts)()`): called
  // without a context, it returns a render bound to `this`, so a copy of this object renders into itself.
  const contextRender = (pageViews() as unknown as () => NonNullable<FakeContext['render']>)();
  return Object.assign(ctx, { render: contextRender });
}
