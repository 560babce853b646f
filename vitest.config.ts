import { defineConfig } from "vitest/config";

// Workspace packages are read from source: Vite's default conditions include `development` outside
// production, which selects each package's `development` export (its src/*.ts).
export default defineConfig({
  test: {
    include: ["{proto,services/*,gateway,launcher,web,bench}/test/**/*.test.{ts,tsx}", "test/**/*.test.ts"],
    globalSetup: ["services/kit/src/testing/global-setup.ts"],
    testTimeout: 30_000,
    hookTimeout: 120_000,
  },
});
