import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: { tsconfigPaths: true },
  test: {
    include: ["tests/unit/**/*.test.ts", "tests/integration/**/*.test.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: "forks",
    // Two files at once: the integration tests mostly wait on the servers they start (Vitest's
    // default, one worker less than the cores, runs them one by one on a 2-core machine).
    maxWorkers: 2,
  },
});
