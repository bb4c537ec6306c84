import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: { tsconfigPaths: true },
  test: {
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: "forks",
    // Two files at once: the integration tests mostly wait on the servers they start (Vitest's
    // default, one worker less than the cores, runs them one by one on a 2-core machine).
    maxWorkers: 2,
    // `npm run test:unit`: the unit tests alone, in seconds, with no build and no server;
    // `npm run test:integration`: the tests that start servers, databases and Redis.
    projects: [
      // Every temporary file of the run goes into one scratch directory, removed when the run ends (tests/scratch-tmpdir.ts).
      { extends: true, test: { name: "unit", include: ["tests/unit/**/*.test.ts"], globalSetup: ["tests/scratch-tmpdir.ts"] } },
      {
        extends: true,
        // One blank embedded database for the run, copied by every fresh data dir (tests/global-setup.ts).
        test: { name: "integration", include: ["tests/integration/**/*.test.ts"], globalSetup: ["tests/scratch-tmpdir.ts", "tests/global-setup.ts"] },
      },
    ],
  },
});
