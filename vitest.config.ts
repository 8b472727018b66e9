import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'src/**/*.test.ts'],
    globalSetup: ['test/setup/services.ts', 'test/setup/studio.ts'],
    // Each test file gets its own empty HOME and XDG_CONFIG_HOME (the real ones never leak in).
    setupFiles: ['test/setup/home.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Agencies built without a store use the default SQLite store; keep tests off the disk.
    env: { COLLOQUY_DB: ':memory:' },
    // `npm run coverage`: v8 coverage of src/ (the published conformance suite runs as tests).
    coverage: {
      provider: 'v8',
      include: ['src/**/*.ts'],
      exclude: ['src/testing/**'],
      reporter: ['text-summary', 'text'],
    },
  },
});
