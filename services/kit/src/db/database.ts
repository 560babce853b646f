import knex, { type Knex } from "knex";
import pg from "pg";
import { kitMigrations } from "./kit-migrations.js";

export type { Knex } from "knex";

// pg returns bigint (int8) columns as strings by default; our bigints (sequence numbers) fit in a
// JS number for the life of any deployment, and numbers are what the code compares.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));

export interface DatabaseOptions {
  url: string;
  /** The service's own Postgres schema; every unqualified table name resolves inside it. */
  schema: string;
  poolMax: number;
}

export function createDatabase(options: DatabaseOptions): Knex {
  return knex({
    client: "pg",
    connection: options.url,
    searchPath: [options.schema],
    pool: { min: 0, max: options.poolMax },
  });
}

export interface Migration {
  up(db: Knex): Promise<void>;
  down?(db: Knex): Promise<void>;
}

/** An ordered list of migrations, named by key; names must never change once released. */
export type Migrations = Record<string, Migration>;

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
 * Creates the schema if needed and applies the kit's tables (outbox, inbox) and then the service's
 * migrations. Safe to run from several replicas at once: schema creation is serialised by an
 * advisory lock and knex's migration lock covers the rest.
 */
export async function migrate(db: Knex, schema: string, migrations: Migrations): Promise<string[]> {
  await db.transaction(async (trx) => {
    await trx.raw("select pg_advisory_xact_lock(hashtext(?))", [`schema:${schema}`]);
    await trx.raw("create schema if not exists ??", [schema]);
  });
  const [, applied] = (await db.migrate.latest({
    migrationSource: new InlineMigrationSource({ ...kitMigrations, ...migrations }),
    schemaName: schema,
    tableName: "migrations",
  })) as [number, string[]];
  return applied;
}
