import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import react from "@vitejs/plugin-react";
import { defineConfig, type Plugin } from "vite";
import { bundleBudget } from "./bundle-budget";

const require = createRequire(import.meta.url);

/** Where Redoc's bundle would fetch its "powered by" logo from; the site's policy lets images come from the site only. */
const REDOC_LOGO_URL = "https://cdn.redoc.ly/redoc/logo-mini.svg";

/**
 * Redoc's self-contained bundle, shipped with the build at /docs/redoc.standalone.js: the gateway's
 * API reference pages load it from the site itself, never from a CDN, and its logo from beside it.
 */
function apiReferenceBundle(): Plugin {
  return {
    name: "tollgate-api-reference",
    generateBundle() {
      const bundle = readFileSync(require.resolve("redoc/bundles/redoc.standalone.js"), "utf8");
      // A Redoc upgrade that moves the logo fails the build rather than bring back a blocked image.
      if (!bundle.includes(REDOC_LOGO_URL)) throw new Error(`Redoc's bundle no longer loads ${REDOC_LOGO_URL}: check where its logo comes from`);
      this.emitFile({ type: "asset", fileName: "docs/redoc.standalone.js", source: bundle.replaceAll(REDOC_LOGO_URL, "/docs/redoc-logo-mini.svg") });
      this.emitFile({ type: "asset", fileName: "docs/redoc.standalone.js.LICENSE.txt", source: readFileSync(require.resolve("redoc/bundles/redoc.standalone.js.LICENSE.txt")) });
      this.emitFile({ type: "asset", fileName: "docs/redoc-logo-mini.svg", source: readFileSync(new URL("./api-reference/redoc-logo-mini.svg", import.meta.url)) });
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
