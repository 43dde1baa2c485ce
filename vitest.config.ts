import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['{core,server,cli,mcp,reporter,fixtures,bench}/**/*.test.ts', 'ui/src/**/*.test.ts'],
    // CLI and e2e tests run the built product; the machine has two cores.
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
  },
});
