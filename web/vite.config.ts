import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";

// In development the Vite server forwards API calls to a running gateway (`npm start`).
export default defineConfig({
  plugins: [react()],
  server: {
    proxy: {
      "/api": process.env.GATEWAY_URL ?? "http://127.0.0.1:3000",
      "/v1": process.env.GATEWAY_URL ?? "http://127.0.0.1:3000",
    },
  },
});
