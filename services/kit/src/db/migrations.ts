import type { Knex } from "./connection.js";

export interface Migration {
  up(db: Knex): Promise<void>;
  down?(db: Knex): Promise<void>;
}

/** An ordered list of migrations, named by key; names must never change once released. */
export type Migrations = Record<string, Migration>;
