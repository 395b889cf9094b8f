// A method an engine endpoint does not answer is a 405 with the methods it does (RFC 9110 §15.5.6), not
// the engine's 404: GET on the token endpoint says "use POST". (Pages: see input-guard.ts.)
import type Koa from 'koa';
import type { SignInConfig } from '../config/schema.ts';
import { refuse } from './edge-answers.ts';
import { isEnginePath, protocolEndpoint } from './protocol-endpoints.ts';

export function methodNotAllowed(config: Pick<SignInConfig, 'languages'>): Koa.Middleware {
  return function refuseOtherMethods(ctx, next) {
    const endpoint = isEnginePath(ctx.path) ? protocolEndpoint(ctx.path) : undefined;
    if (!endpoint || endpoint.methods.includes(ctx.method)) return next();
    ctx.set('Allow', endpoint.methods.join(', '));
    return refuse(ctx, config, endpoint.kind, {
      status: 405,
      error: 'invalid_request',
      description: `${ctx.method} is not allowed here; allowed: ${endpoint.methods.join(', ')}`,
      reason: 'methodNotAllowed',
    });
  };
}
