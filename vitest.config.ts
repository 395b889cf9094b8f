import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Argon2 hashing and real databases make some tests slower than unit tests.
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Files share one local Postgres and Redis; two workers keep the 2-core machine responsive.
    maxWorkers: 2,
  },
});
