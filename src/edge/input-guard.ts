// The input guard, in front of the engine and the pages: every request's path and query, and the body
// of every form post to the engine, are checked before anything reads them (input-rules.ts): valid
// UTF-8 percent-encoding, no control characters, no repeated parameter, no oversized value, a
// form-encoded body. A refusal is a 400 with an RFC 6749 error (protocol endpoints) or the localized
// page (pages, and the endpoints a browser navigates to); nothing is stored.
//
// One exception: a parameter repeated at the authorization endpoint, other than `client_id` and
// `redirect_uri`, is left to the engine. RFC 6749 §4.1.2.1 wants `invalid_request` sent back to the
// application once its client and redirect URI are known good, and the engine does exactly that with a
// repeated parameter it reads (lib/shared/reject_dupes.js: the values dropped, `state` too when it is
// the one repeated), through its usual checks: an unregistered redirect URI, or an application that may
// not receive redirects yet (src/provider/error-redirects.ts), still gets the page. A repeated parameter
// the engine does not know is ignored like any unknown one (RFC 6749 §3.1). A repeated `client_id` or
// `redirect_uri` names no single application or address to answer: the page, here.
//
// The engine parses its own bodies: the guard reads an engine form post once, checks it, and hands the
// same bytes to the engine as its request stream (src/http/replay-body.ts), which the engine parses with its
// own parser. The pages read their bodies themselves, through
// src/pages/form-body.ts, which applies the same rules.
import type { IncomingMessage } from 'node:http';
import type Koa from 'koa';
import type { SignInConfig } from '../config/schema.ts';
import { refuse, type EdgeRefusal } from './edge-answers.ts';
import { hostParsedBody } from '../http/host-parsed-body.ts';
import { replayBody } from '../http/replay-body.ts';
import { decodeForm, decodeFormValue, decodePath, InputError, type InputProblem } from '../http/input-rules.ts';
import { isEnginePath, protocolEndpoint, type EndpointKind, type ProtocolEndpoint } from './protocol-endpoints.ts';

/** Longest query string and engine form body read, in bytes (the engine itself stops at 56 KB). */
export const MAX_QUERY_BYTES = 16 * 1024;
export const MAX_ENGINE_BODY_BYTES = 32 * 1024;
/** Longest path, decoded, in characters: no route has a segment near it. */
export const MAX_PATH_LENGTH = 2048;
/** Longest value of one parameter, in characters; the few that carry a JWT get more. */
export const MAX_VALUE_LENGTH = 4096;
const LONG_VALUES: Readonly<Record<string, number>> = {
  id_token_hint: 8192,
  logout_hint: 8192,
  request: 8192,
  client_assertion: 8192,
  token: 8192,
};
/** What an authorization request must carry once: without one value of each, nothing may be redirected. */
const SINGLE_AT_AUTHORIZATION: ReadonlySet<string> = new Set(['client_id', 'redirect_uri']);
// RFC 6749 Appendix A.1: a client_id is printable ASCII. It is a storage key: nothing else may reach a query.
const VSCHAR = /^[\u0020-\u007e]*$/u;
/** The methods every page answers; anything else is refused before a router looks at it. */
const PAGE_METHODS = ['GET', 'HEAD', 'POST'];

// The checked parameters of an engine request, for the edge middlewares behind the guard.
const checked = new WeakMap<IncomingMessage, ReadonlyMap<string, string>>();
const NO_PARAMS: ReadonlyMap<string, string> = new Map();

/** The parameters of this engine request as the guard checked them (the body of a POST, else the query). */
export function requestParams(ctx: Pick<Koa.Context, 'req'>): ReadonlyMap<string, string> {
  return checked.get(ctx.req) ?? NO_PARAMS;
}

export function inputGuard(config: Pick<SignInConfig, 'languages'>): Koa.Middleware {
  const refused = (ctx: Koa.Context, error: unknown, kind: EndpointKind, engine: boolean) => {
    if (!(error instanceof InputError)) throw error;
    if (error.problem === 'tooLarge') ctx.set('Connection', 'close');
    return refuse(ctx, config, kind, refusalFor(error, engine));
  };

  // An engine form post: its body is read, checked and handed on before the engine runs.
  const guardBody = async (
    ctx: Koa.Context,
    next: Koa.Next,
    query: Map<string, string>,
    endpoint: ProtocolEndpoint | undefined,
    kind: EndpointKind,
  ) => {
    try {
      const body = await readEngineBody(ctx);
      const fields = decodeForm(body);
      const authorization = endpoint?.name === 'authorization';
      const params = checkParams(fields, authorization);
      if (authorization) {
        // The authorization endpoint takes its parameters in the query or, posted, in the body: one place.
        if (query.size > 0) throw new InputError('mixed');
        ctx.method = 'GET';
        // Every field, a repeated one twice: the engine refuses it (see the top of this file).
        ctx.querystring = new URLSearchParams(fields).toString();
      } else {
        // The engine reads the same bytes from the request stream (src/http/replay-body.ts).
        replayBody(ctx.req, body);
      }
      if (endpoint?.clientAuth) checkBasicCredentials(ctx.get('Authorization'));
      checked.set(ctx.req, params);
    } catch (error) {
      return refused(ctx, error, kind, true);
    }
    await next();
  };

  // Not an async function: a request without a body to read (most of them) goes on without a promise of its own.
  return function guardInput(ctx, next) {
    const engine = isEnginePath(ctx.path);
    const endpoint = engine ? protocolEndpoint(ctx.path) : undefined;
    const kind: EndpointKind = endpoint?.kind ?? (engine ? 'api' : 'browser');
    if (!engine && !PAGE_METHODS.includes(ctx.method)) {
      ctx.set('Allow', PAGE_METHODS.join(', '));
      return refuse(ctx, config, 'browser', {
        status: 405,
        error: 'invalid_request',
        description: 'method not allowed',
        reason: 'methodNotAllowed',
      });
    }
    try {
      if (decodePath(ctx.path).length > MAX_PATH_LENGTH) throw new InputError('tooLong', 'the path');
      // A repeated parameter of an authorization request is the engine's to refuse (see the top of this file).
      const query = checkParams(readQuery(ctx), endpoint?.name === 'authorization' && ctx.method !== 'POST');
      if (engine && ctx.method === 'POST') return guardBody(ctx, next, query, endpoint, kind);
      if (endpoint?.clientAuth) checkBasicCredentials(ctx.get('Authorization'));
      // Nothing to record for a request without parameters (userinfo's): requestParams answers it empty.
      if (engine && query.size > 0) checked.set(ctx.req, query);
    } catch (error) {
      return refused(ctx, error, kind, engine);
    }
    return next();
  };
}

function readQuery(ctx: Koa.Context): Array<[string, string]> {
  const raw = ctx.querystring;
  if (Buffer.byteLength(raw, 'latin1') > MAX_QUERY_BYTES) throw new InputError('tooLarge');
  return decodeForm(raw);
}

/**
 * One value per name, each within its length; client_id printable ASCII. With `authorization`, a repeated
 * name other than client_id and redirect_uri passes, and is left out of the answer (it has no one value).
 */
function checkParams(fields: Array<[string, string]>, authorization = false): Map<string, string> {
  const params = new Map<string, string>();
  const repeated = new Set<string>();
  for (const [name, value] of fields) {
    if (params.has(name)) {
      if (!authorization || SINGLE_AT_AUTHORIZATION.has(name)) throw new InputError('repeated', name);
      repeated.add(name);
    }
    if (value.length > (Object.hasOwn(LONG_VALUES, name) ? LONG_VALUES[name] : MAX_VALUE_LENGTH)) throw new InputError('tooLong', name);
    if (name === 'client_id' && !VSCHAR.test(value)) throw new InputError('encoding', name);
    params.set(name, value);
  }
  for (const name of repeated) params.delete(name);
  return params;
}

/** The body of a form post to the engine, read whole (up to the limit) and only when it is form-encoded. */
async function readEngineBody(ctx: Koa.Context): Promise<Buffer> {
  const type = ctx.get('Content-Type');
  const declared = Number(ctx.get('Content-Length') || 0);
  if (!type) {
    // No content type: an empty body (the engine reads it as no parameters); anything else is refused.
    if (declared > 0 || ctx.get('Transfer-Encoding')) throw new InputError('contentType');
    return Buffer.alloc(0);
  }
  if (!ctx.is('application/x-www-form-urlencoded')) throw new InputError('contentType');
  const charset = ctx.request.charset;
  if (charset && charset.toLowerCase() !== 'utf-8') throw new InputError('contentType');
  if (declared > MAX_ENGINE_BODY_BYTES) throw new InputError('tooLarge');
  // Mounted behind a host app's body parser, the stream is spent: its parsed body, under the same rules.
  const parsed = hostParsedBody(ctx);
  if (parsed) return checkSize(parsed);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of ctx.req.iterator({ destroyOnReturn: false })) {
    size += (chunk as Buffer).length;
    // Stop reading rather than buffer an oversized (possibly endless) body.
    if (size > MAX_ENGINE_BODY_BYTES) throw new InputError('tooLarge');
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

const checkSize = (body: Buffer): Buffer => {
  if (body.length > MAX_ENGINE_BODY_BYTES) throw new InputError('tooLarge');
  return body;
};

/** HTTP Basic client credentials (RFC 6749 §2.3.1): each part form-encoded, then checked like a parameter. */
function checkBasicCredentials(header: string): void {
  const [scheme, value] = header.split(' ');
  if (scheme?.toLowerCase() !== 'basic' || !value) return;
  if (value.length > MAX_VALUE_LENGTH) throw new InputError('tooLong', 'authorization');
  const decoded = Buffer.from(value, 'base64');
  const colon = decoded.indexOf(0x3a /* : */);
  if (colon === -1) throw new InputError('encoding', 'authorization');
  const clientId = decodeFormValue(decoded.subarray(0, colon), {}, 'authorization');
  decodeFormValue(decoded.subarray(colon + 1), {}, 'authorization');
  if (!VSCHAR.test(clientId)) throw new InputError('encoding', 'authorization');
}

const DESCRIPTIONS: Readonly<Record<InputProblem, (parameter: string) => string>> = {
  encoding: (p) => `${p} is not valid percent-encoded UTF-8 text`,
  control: (p) => `${p} must not contain control characters`,
  tooLong: (p) => `${p} is too long`,
  repeated: (p) => `${p} must not be provided twice`,
  tooLarge: () => 'the request is too large',
  contentType: () => 'only application/x-www-form-urlencoded bodies in UTF-8 are accepted',
  mixed: () => 'a POST carries its parameters in its body, not in its query',
};

function refusalFor(error: InputError, engine: boolean): EdgeRefusal {
  return {
    status: 400,
    error: 'invalid_request',
    description: DESCRIPTIONS[error.problem](error.parameter ?? 'a parameter'),
    // An application's request to the engine, or a page's own link or form.
    reason: engine ? 'invalidRequest' : 'badInput',
  };
}
