// `npm run test:unit`: the fast lane, the tests that start no server. A file belongs here when it listens on
// no port, opens no connection (Postgres, Redis, SMTP, HTTP), starts no PGlite, no Chromium and no child
// process: in practice, when it imports none of test/support/{service,databases,browser,flow,relying-party}.ts.
// `npm test` still runs every test, these included.
//
// Add a new file or folder below when it qualifies. The lane holds its promise by itself:
// test/lint/unit-lane-setup.ts fails a test here that listens, connects or starts a process, and
// test/lint/unit-lane.test.ts fails when a pattern below matches nothing or a file here imports a helper
// that starts a server or a store.
import { defineConfig } from 'vitest/config';
import base from './vitest.config.ts';

export const unitTests = [
  'test/account/device-name.test.ts',
  'test/accounts/hashing-threads.test.ts',
  'test/accounts/password-policy.test.ts',
  'test/accounts/rules.test.ts',
  'test/adapters/outage-classification.test.ts',
  'test/adapters/storage-deadline.test.ts',
  'test/storage/data-dir-lock.test.ts',
  'test/authorization/redirect-uri-rules.test.ts',
  'test/bench/harness-summary.test.ts',
  'test/config/**/*.test.ts',
  'test/consent/remembered-consent.test.ts',
  'test/container/compose.test.ts',
  'test/container/container-page.test.ts',
  'test/docs/reference.test.ts',
  'test/hostile-input/input-rules.test.ts',
  'test/i18n/plurals.test.ts',
  'test/keys/key-schedule.test.ts',
  'test/keys/pool-signing-keys.test.ts',
  'test/lint/**/*.test.ts',
  'test/pages/**/*.test.ts',
  'test/phone/phone-rules.test.ts',
  'test/provider/configuration.test.ts',
  'test/provider/cors.test.ts',
  'test/provider/engine-boundary.test.ts',
  'test/provider/find-account.test.ts',
  'test/provider/load-existing-grant.test.ts',
  'test/provider/pairwise-identifier.test.ts',
  'test/provider/refresh-rotation.test.ts',
  'test/security-log/documented-events.test.ts',
  'test/signup/password-hashing.test.ts',
  'test/timing/welch.test.ts',
];

export default defineConfig({
  ...base,
  test: {
    ...base.test,
    include: unitTests,
    setupFiles: ['test/lint/unit-lane-setup.ts'],
  },
});
