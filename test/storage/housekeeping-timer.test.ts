// The running service sweeps and vacuums on its own timer (`sweepIntervalSeconds`), and a sweep that
// fails is written to the log, then tried again at the next interval: never silent, never fatal.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../support/eventually.ts';
import { startTestService, type TestService } from '../support/service.ts';
import { LogCapture } from '../security-log/capture.ts';
import { vacuumsOfModels } from './helpers/vacuums.ts';

const log = new LogCapture();
let svc: TestService;

beforeAll(async () => {
  svc = await startTestService({ log: { level: 'info', pretty: false } }, { logDestination: log.destination, sweepIntervalSeconds: 1 });
});
afterAll(async () => {
  await svc?.stop();
});

describe('housekeeping on the service timer', () => {
  it('removes expired rows and vacuums the embedded store on its own', async () => {
    const { db } = svc.service.context;
    const vacuums = () => vacuumsOfModels(db);
    const before = await vacuums();
    await db.query(
      `INSERT INTO oidc_models (model, id_hash, payload, expires_at) VALUES ('AccessToken', 'timer-expired', '{}'::jsonb, now() - interval '1 minute')`,
    );
    await eventually(
      async () =>
        (await db.query(`SELECT 1 FROM oidc_models WHERE id_hash = 'timer-expired'`)).rowCount === 0 && (await vacuums()) > before,
      'the expired row swept and the store vacuumed',
    );
  });

  it('logs a sweep that fails, and goes on sweeping once it can', async () => {
    const { db } = svc.service.context;
    await db.query('ALTER TABLE email_tokens RENAME TO email_tokens_away');
    try {
      await eventually(() => log.lines().some((line) => line.msg === 'housekeeping failed'), 'the failed sweep logged');
    } finally {
      await db.query('ALTER TABLE email_tokens_away RENAME TO email_tokens');
    }
    const failure = log.lines().find((line) => line.msg === 'housekeeping failed')!;
    expect(failure.level).toBe('warn');
    expect(JSON.stringify(failure.err)).toContain('email_tokens');
    await db.query(
      `INSERT INTO oidc_models (model, id_hash, payload, expires_at) VALUES ('AccessToken', 'timer-later', '{}'::jsonb, now() - interval '1 minute')`,
    );
    await eventually(
      async () => (await db.query(`SELECT 1 FROM oidc_models WHERE id_hash = 'timer-later'`)).rowCount === 0,
      'the row swept at the next interval',
    );
  });
});
