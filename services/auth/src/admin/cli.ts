// `npm run admin -- grant <email>` / `revoke <email>`: how the first admin comes to exist.
import { z } from "zod";
import { busNames, userUpdated } from "@tollgate/proto";
import { ConfigError, createDatabase, createLogger, describeStartupError, env, loadConfig, Outbox, serviceEnv, Units } from "@tollgate/kit";
import { authEnv } from "../config.js";
import { userEventData } from "../users/output.js";
import { findUserByEmail, updateUser } from "../users/users.sql.js";
import { endDisallowedImpersonations } from "./impersonation.js";

const USAGE = "usage: npm run admin -- grant <email> | revoke <email>";

/** sysexits(3) codes, so a provisioning script can tell "sign up first" from "start Tollgate first". */
const EXIT = { usage: 64, noUser: 67, unavailable: 69, config: 78 } as const;

/** Postgres codes meaning the auth service never ran here: no such database, no such table. */
const NOT_MIGRATED = new Set(["3D000", "42P01"]);

/** What `npm start` would give the auth service, with the same defaults. */
const cliEnv = z.object({
  DATABASE_URL: serviceEnv.DATABASE_URL,
  DATABASE_SCHEMA: env.string("a Postgres schema name", "auth"),
  NATS_PREFIX: serviceEnv.NATS_PREFIX,
  /** Who stays an admin whatever their role, for the impersonations a role change ends. */
  ADMIN_USER_IDS: authEnv.shape.ADMIN_USER_IDS,
});

/** A comma-separated role list with `admin` added (in place of the default `user`) or taken out. */
function withAdmin(roles: string, admin: boolean): string {
  const names = new Set(roles.split(",").filter(Boolean));
  if (admin) {
    names.delete("user");
    names.add("admin");
  } else names.delete("admin");
  return [...names].join(",") || "user";
}

const errorCode = (error: unknown) => (typeof error === "object" && error !== null && "code" in error ? String(error.code) : undefined);

async function main(args: string[]): Promise<number> {
  const [command, email, ...rest] = args;
  if ((command !== "grant" && command !== "revoke") || !email || rest.length > 0) {
    process.stderr.write(`${USAGE}\n`);
    return EXIT.usage;
  }
  let config: z.output<typeof cliEnv>;
  try {
    config = loadConfig(cliEnv);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    process.stderr.write(`admin: ${error.message}\n`);
    return EXIT.config;
  }
  const grant = command === "grant";
  const db = createDatabase({ url: config.DATABASE_URL, schema: config.DATABASE_SCHEMA, poolMax: 1 });
  try {
    const user = await findUserByEmail(db, email.toLowerCase());
    if (!user) {
      process.stderr.write(`no user has the e-mail address ${email}; they must sign up first\n`);
      return EXIT.noUser;
    }
    const role = withAdmin(user.role, grant);
    if (role === user.role) {
      process.stdout.write(`${user.email} ${grant ? "is already an admin" : "is not an admin"} (roles: ${role})\n`);
      return 0;
    }
    // The auth service's outbox relay publishes the event, as for any change made through the API.
    const units = new Units(db, new Outbox("auth", config.DATABASE_SCHEMA, busNames(config.NATS_PREFIX)), createLogger({ service: "auth-admin", level: "warn" }));
    await units.run(async (unit) => {
      const changed = await updateUser(unit.db, user.id, { role });
      if (changed) unit.announce(userUpdated, userEventData(changed));
      await endDisallowedImpersonations(config, unit, user.id);
    });
    process.stdout.write(`${user.email} is ${grant ? "now an admin" : "no longer an admin"} (roles: ${role})\n`);
    return 0;
  } catch (error) {
    const code = errorCode(error);
    if (code && NOT_MIGRATED.has(code)) {
      process.stderr.write("the auth service has not set up its tables here yet; run `npm start` (or `npm run migrate`) first\n");
      return EXIT.unavailable;
    }
    // Node's own codes (ECONNREFUSED, ENOTFOUND, ...): Postgres is not there at all.
    if (code?.startsWith("E")) {
      process.stderr.write(`admin: ${describeStartupError("Postgres", config.DATABASE_URL, error).message}\n`);
      return EXIT.unavailable;
    }
    throw error;
  } finally {
    await db.destroy();
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`admin: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);
