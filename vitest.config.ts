import { defineConfig } from "vitest/config";

/**
 * Tests that start the whole stack (`npm start`, or the launcher with several replicas of everything):
 * they run one at a time. `npm test` (test/run.ts) runs them as a Vitest run of their own beside the
 * services' files; a plain `vitest run` takes them after the rest.
 */
const WHOLE_STACK = ["launcher/test/stack.test.ts", "launcher/test/replicas.test.ts", "bench/test/**/*.test.ts", "test/e2e/**/*.test.ts"];

// Workspace packages are read from source: Vite's default conditions include `development` outside
// production, which selects each package's `development` export (its src/*.ts).
export default defineConfig({
  test: {
    globalSetup: ["services/kit/src/testing/global-setup.ts"],
    testTimeout: 30_000,
    hookTimeout: 120_000,
    // Vitest's default is one worker fewer than the cores: a single one on the 2-core CI machine,
    // while these files mostly wait on Postgres, NATS and HTTP. Two take the services' files in
    // 360 s instead of about 630 s there (each file has its own database and prefixes).
    maxWorkers: 2,
    projects: [
      {
        extends: true,
        test: {
          name: "services",
          include: ["{proto,services/*,gateway,launcher,web,bench}/test/**/*.test.{ts,tsx}", "test/**/*.test.ts"],
          exclude: WHOLE_STACK,
        },
      },
      {
        extends: true,
        test: { name: "whole stack", include: WHOLE_STACK, fileParallelism: false, sequence: { groupOrder: 1 } },
      },
    ],
  },
});
