import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // The chat simulator's responses and events are checked against schemas/chat in every test.
    setupFiles: ['test/contract/setup.ts'],
    // Their validators are compiled once for the run, before the workers start.
    globalSetup: ['test/contract/global-setup.ts'],
    // A test without an assertion cannot fail; refuse it.
    expect: { requireAssertions: true },
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
