// The service with phone sign-in on, its codes going to the local fake gateways (fake-gateways.ts), on
// the embedded store or on Postgres and Redis, with its log kept.
import type { SignInConfigInput } from '../../src/config/schema.ts';
import { LogCapture } from '../security-log/capture.ts';
import { freshPostgres, freshRedis } from '../support/databases.ts';
import { startTestService, type TestService } from '../support/service.ts';
import { postgresStorage } from '../storage/helpers/instance.ts';
import { startFakeGateways, WEBHOOK_TOKEN, type FakeGateways } from './fake-gateways.ts';

export type StoreKind = 'embedded' | 'postgres';
export const STORES: StoreKind[] = ['embedded', 'postgres'];

export interface PhoneTestService {
  svc: TestService;
  fake: FakeGateways;
  log: LogCapture;
  stop(): Promise<void>;
}

export async function startPhoneService(store: StoreKind, phone: Record<string, unknown> = {}, extra: Partial<SignInConfigInput> = {}) {
  const fake = await startFakeGateways();
  const log = new LogCapture();
  const cleanups: Array<() => Promise<void>> = [];
  let storage: SignInConfigInput['storage'] | undefined;
  if (store === 'postgres') {
    const pg = await freshPostgres();
    const redis = await freshRedis();
    cleanups.push(
      () => redis.cleanup(),
      () => pg.drop(),
    );
    storage = postgresStorage(pg.url, redis.config);
  }
  const svc = await startTestService(
    {
      ...(storage ? { storage } : {}),
      log: { level: 'info', pretty: false },
      phone: {
        enabled: true,
        gateway: 'webhook',
        webhook: { url: `${fake.url}/hook`, bearerToken: WEBHOOK_TOKEN },
        coolingOffHours: 0,
        simSwap: { url: `${fake.url}/camara/sim-swap/v0/check`, bearerToken: 'camara-token' },
        ...phone,
      } as SignInConfigInput['phone'],
      ...extra,
    },
    { logDestination: log.destination },
  );
  return {
    svc,
    fake,
    log,
    async stop() {
      await svc.stop();
      await fake.stop();
      for (const cleanup of cleanups) await cleanup();
    },
  } satisfies PhoneTestService;
}
