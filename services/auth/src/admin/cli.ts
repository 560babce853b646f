// `npm run admin -- grant <email>` / `revoke <email>`: how the first admin comes to exist.
import { z } from "zod";
import { busNames, userUpdated } from "@tollgate/proto";
import { createDatabase, env, loadConfig, Outbox, serviceEnv } from "@tollgate/kit";
import { userEventData } from "../users/user-output.js";
import { findUserByEmail, updateUser } from "../users/users.sql.js";

const UNDEFINED_TABLE = "42P01";

const cliEnv = z.object({
  DATABASE_URL: serviceEnv.DATABASE_URL,
  DATABASE_SCHEMA: env.string("a Postgres schema name", "auth"),
  NATS_PREFIX: serviceEnv.NATS_PREFIX,
});

function withRole(roles: string, role: string, present: boolean): string {
  const names = new Set(roles.split(",").map((name) => name.trim()).filter(Boolean));
  if (present) {
    names.delete("user");
    names.add(role);
  } else names.delete(role);
  return [...names].join(",") || "user";
}

async function main(args: string[]): Promise<number> {
  const [command, email] = args;
  if ((command !== "grant" && command !== "revoke") || !email) {
    process.stderr.write("usage: npm run admin -- grant <email> | revoke <email>\n");
    return 64;
  }
  const config = loadConfig(cliEnv);
  const db = createDatabase({ url: config.DATABASE_URL, schema: config.DATABASE_SCHEMA, poolMax: 1 });
  try {
    const user = await findUserByEmail(db, email.toLowerCase());
    if (!user) {
      process.stderr.write(`no user has the e-mail address ${email}; they must sign up first\n`);
      return 1;
    }
    const role = withRole(user.role, "admin", command === "grant");
    // The running auth service's outbox relay publishes the event, as for any other change.
    const outbox = new Outbox("auth", config.DATABASE_SCHEMA, busNames(config.NATS_PREFIX));
    await db.transaction(async (trx) => {
      const changed = await updateUser(trx, user.id, { role });
      if (changed) await outbox.emit(trx, userUpdated, userEventData(changed));
    });
    process.stdout.write(`${user.email} is ${command === "grant" ? "now an admin" : "no longer an admin"} (roles: ${role})\n`);
    return 0;
  } catch (error) {
    if ((error as { code?: string }).code === UNDEFINED_TABLE) {
      process.stderr.write("the auth schema has no tables yet; run `npm start` (or `npm run migrate`) first\n");
      return 1;
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
