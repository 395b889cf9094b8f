import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Argon2 hashing, real databases and Chromium make some tests slower than unit tests; the limits
    // only stop a hung test, with room for a busy 2-core machine (nothing here is timed).
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Files share one local Postgres and Redis; two workers keep the 2-core machine responsive.
    maxWorkers: 2,
  },
});
