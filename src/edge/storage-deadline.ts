// Every request gets one deadline for all its storage work (adapters/storage-deadline.ts says why): the
// store guards end its calls there, and the outage answers (storage-outage.ts, the pages' outage page)
// turn what they throw into a 503. Health checks come before this: readiness has its own bound.
import type Koa from 'koa';
import { withStorageDeadline } from '../../adapters/storage-deadline.ts';
import type { SignInConfig } from '../config/schema.ts';

export function storageDeadline(config: { storage: Pick<SignInConfig['storage'], 'requestDeadlineMs'> }): Koa.Middleware {
  const ms = config.storage.requestDeadlineMs;
  return function requestStorageDeadline(_ctx, next) {
    return withStorageDeadline(ms, next);
  };
}
