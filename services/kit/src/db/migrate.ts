import type { Knex } from "./connection.js";
import { createDatabase } from "./connection.js";
import { kitMigrations } from "./kit-migrations.js";
import type { Migrations } from "./migrations.js";

class InlineMigrationSource implements Knex.MigrationSource<string> {
  constructor(private readonly migrations: Migrations) {}
  getMigrations(): Promise<string[]> {
    return Promise.resolve(Object.keys(this.migrations));
  }
  getMigrationName(name: string): string {
    return name;
  }
  getMigration(name: string): Promise<Knex.Migration> {
    const migration = this.migrations[name];
    if (!migration) throw new Error(`unknown migration ${name}`);
    return Promise.resolve({
      up: (db: Knex) => migration.up(db),
      down: (db: Knex) => (migration.down ? migration.down(db) : Promise.reject(new Error(`${name} cannot be undone`))),
    });
  }
}

/**
 * The migrations (the kit's, then the service's) that the schema has not recorded as applied, in
 * order; all of them before the first `migrate`. It only reads, so a release can ask before it starts
 * whether the schema is ready for it. A schema migrated by a later release has rows this one does not
 * know, and those count for nothing either way.
 */
export async function pendingMigrations(options: { url: string; schema: string }, migrations: Migrations): Promise<string[]> {
  const db = createDatabase({ url: options.url, schema: options.schema, poolMax: 1 });
  try {
    const { rows } = await db.raw<{ rows: { recorded: boolean }[] }>("select to_regclass(format('%I.migrations', ?::text)) is not null as recorded", [options.schema]);
    const applied = rows[0]?.recorded ? await db.withSchema(options.schema).from("migrations").pluck<string[]>("name") : [];
    const done = new Set(applied);
    return Object.keys({ ...kitMigrations, ...migrations }).filter((name) => !done.has(name));
  } finally {
    await db.destroy();
  }
}

/**
 * Creates the schema if needed and applies the kit's tables (outbox, inbox) and then the service's
 * migrations, on connections of its own. Replicas starting together take turns: a transaction-level
 * advisory lock on the schema is held until the migrations are done, since knex's own lock table
 * cannot protect its creation.
 */
export async function migrate(options: { url: string; schema: string }, migrations: Migrations): Promise<string[]> {
  // One connection holds the lock while knex's migrator uses up to two more.
  const db = createDatabase({ url: options.url, schema: options.schema, poolMax: 3 });
  try {
    const takeLock = (trx: Knex.Transaction) => trx.raw("select pg_advisory_xact_lock(hashtext(?))", [`migrate:${options.schema}`]);
    await db.transaction(async (trx) => {
      await takeLock(trx);
      await trx.raw("create schema if not exists ??", [options.schema]);
    });
    return await db.transaction(async (lock) => {
      await takeLock(lock);
      const [, applied] = (await db.migrate.latest({
        migrationSource: new InlineMigrationSource({ ...kitMigrations, ...migrations }),
        schemaName: options.schema,
        tableName: "migrations",
        // Migrations only expand a schema, so a release still starts on one a later release has
        // migrated (a pod restarting mid-rollout, a rollback); knex would call its rows "missing files".
        disableMigrationsListValidation: true,
      })) as [number, string[]];
      return applied;
    });
  } finally {
    await db.destroy();
  }
}
