// An instance whose issuer is https answers only requests that arrived over https (directly, or through
// a trusted proxy's X-Forwarded-Proto: see proxy.ts). A plain-http request gets a clear 400, not a
// redirect: behind a proxy that does not say the request was https, a redirect to https would loop.
// Its secure cookies could not be set over plain http anyway (they used to fail as a 500).
import type Koa from 'koa';
import type { SignInConfig } from '../config/schema.ts';
import { refuse } from './edge-answers.ts';
import { isEnginePath, protocolEndpoint } from './protocol-endpoints.ts';

export function httpsOnly(config: Pick<SignInConfig, 'issuer' | 'languages'>): Koa.Middleware {
  const https = config.issuer.startsWith('https://');
  return function refusePlainHttp(ctx, next) {
    if (!https || ctx.secure) return next();
    const kind = isEnginePath(ctx.path) ? (protocolEndpoint(ctx.path)?.kind ?? 'api') : 'browser';
    return refuse(ctx, config, kind, {
      status: 400,
      error: 'invalid_request',
      description: `this service is served over https only: use ${config.issuer}`,
      reason: 'httpsRequired',
    });
  };
}
