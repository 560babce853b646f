// A plain better-auth server, run by bench/auth as its own process: the yardstick.
import { createServer } from "node:http";
import { betterAuth } from "better-auth";
import { getMigrations } from "better-auth/db/migration";
import { toNodeHandler } from "better-auth/node";
import pg from "pg";

const { DATABASE_URL, PORT, BETTER_AUTH_SECRET } = process.env;
if (!DATABASE_URL || !PORT || !BETTER_AUTH_SECRET) throw new Error("DATABASE_URL, PORT and BETTER_AUTH_SECRET are required");

const options = {
  baseURL: `http://127.0.0.1:${PORT}`,
  secret: BETTER_AUTH_SECRET,
  database: new pg.Pool({ connectionString: DATABASE_URL, max: 10 }),
  emailAndPassword: { enabled: true },
  // The benchmark drives thousands of sign-ins from one address; Tollgate's limits are off too.
  rateLimit: { enabled: false },
  telemetry: { enabled: false },
};
const { runMigrations } = await getMigrations(options);
await runMigrations();
const auth = betterAuth(options);
createServer(toNodeHandler(auth)).listen(Number(PORT), "127.0.0.1", () => process.stdout.write(`better-auth listening on ${PORT}\n`));
