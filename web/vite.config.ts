import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import react from "@vitejs/plugin-react";
import { defineConfig, type Plugin } from "vite";
import { bundleBudget } from "./bundle-budget";

const require = createRequire(import.meta.url);

/**
 * Redoc's self-contained bundle, shipped with the build at /docs/redoc.standalone.js: the gateway's
 * API reference pages load it from the site itself, never from a CDN.
 */
function apiReferenceBundle(): Plugin {
  return {
    name: "tollgate-api-reference",
    generateBundle() {
      for (const file of ["redoc.standalone.js", "redoc.standalone.js.LICENSE.txt"]) {
        this.emitFile({ type: "asset", fileName: `docs/${file}`, source: readFileSync(require.resolve(`redoc/bundles/${file}`)) });
      }
    },
  };
}

// In development the Vite server forwards API calls to a running gateway (`npm start`).
export default defineConfig({
  plugins: [
    react(),
    apiReferenceBundle(),
    // Issue 21's limit. The sign-in page checks its form without zod (auth/form.ts): zod's chunks
    // carry whatever any route uses of them, and would be a sixth of the page.
    bundleBudget([{ page: "/sign-in", module: "/src/auth/sign-in-screen.tsx", maxGzipKb: 150 }]),
  ],
  server: {
    proxy: {
      "/api": process.env.GATEWAY_URL ?? "http://127.0.0.1:3000",
      "/v1": process.env.GATEWAY_URL ?? "http://127.0.0.1:3000",
      "/docs": process.env.GATEWAY_URL ?? "http://127.0.0.1:3000",
    },
  },
});
