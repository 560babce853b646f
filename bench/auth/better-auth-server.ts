/**
 * The yardstick for `bench/auth`: a plain better-auth server (e-mail and password, its pg adapter,
 * no cookie cache, no secondary storage) behind node's http server, run by the bench as its own
 * process, with its two-factor and passkey plugins for the second factor's cost. Its tables (the plugin's too) are
 * created in the (throwaway) database it is given before it listens.
 *
 * Env: DATABASE_URL, PORT, BETTER_AUTH_SECRET.
 */
import { createServer } from "node:http";
import { betterAuth } from "better-auth";
import { getMigrations } from "better-auth/db/migration";
import { toNodeHandler } from "better-auth/node";
import { twoFactor } from "better-auth/plugins";
import { passkey } from "@better-auth/passkey";
import pg from "pg";

const { DATABASE_URL, PORT, BETTER_AUTH_SECRET } = process.env;
if (!DATABASE_URL || !PORT || !BETTER_AUTH_SECRET) throw new Error("DATABASE_URL, PORT and BETTER_AUTH_SECRET are required");

const pool = new pg.Pool({ connectionString: DATABASE_URL, max: 10 }); // Tollgate's DATABASE_POOL_MAX default
const options = {
  baseURL: `http://127.0.0.1:${PORT}`,
  secret: BETTER_AUTH_SECRET,
  database: pool,
  emailAndPassword: { enabled: true },
  // The bench signs in thousands of times from one address; the gateway's limits are off too.
  rateLimit: { enabled: false },
  telemetry: { enabled: false },
  logger: { level: "warn" as const },
  // Only the users who enable it are asked for a second factor: the others sign in as without it.
  plugins: [twoFactor(), passkey({ rpID: "127.0.0.1", rpName: "bench", origin: `http://127.0.0.1:${PORT}` })],
};
const { runMigrations } = await getMigrations(options);
await runMigrations();
const server = createServer(toNodeHandler(betterAuth(options))).listen(Number(PORT), "127.0.0.1");

// The bench stops it with SIGTERM once its measurements are over; requests still in flight then
// are abandoned. Exiting rather than dying of the signal lets `--cpu-prof` write its profile.
process.once("SIGTERM", () => {
  server.close();
  server.closeAllConnections();
  process.exit(0);
});
