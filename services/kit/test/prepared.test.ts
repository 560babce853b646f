import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDatabase, prepared, type Knex } from "@tollgate/kit";
import { createTestEnvironment } from "@tollgate/kit/testing";

const SCHEMA = "prepared_test";
let db: Knex;

beforeAll(async () => {
  const environment = await createTestEnvironment();
  // One connection, so every run below reuses the statements it prepared.
  db = createDatabase({ url: environment.databaseUrl, schema: SCHEMA, poolMax: 1 });
  await db.raw("create schema if not exists ??", [SCHEMA]);
  await db.schema.withSchema(SCHEMA).createTable("widgets", (table) => {
    table.integer("id").primary();
    table.text("name").notNullable();
  });
  await db("widgets").insert([
    { id: 1, name: "sprocket" },
    { id: 2, name: "flange" },
  ]);
});

afterAll(async () => {
  await db?.destroy();
});

const widgetAsJson = (id: number) => prepared(db.raw<{ rows: { widget: { id: number; name: string } }[] }>("select to_json(widget) as widget from widgets widget where id = ?", [id]));
const widgetColumns = (id: number) => prepared(db.raw<{ rows: { id: number; name: string }[] }>("select * from widgets where id = ?", [id]));

describe("prepared statements", () => {
  it("run again with other values, and answering rows as JSON survive a migration that adds a column", async () => {
    expect((await widgetAsJson(1)).rows).toEqual([{ widget: { id: 1, name: "sprocket" } }]);
    expect((await widgetColumns(2)).rows).toEqual([{ id: 2, name: "flange" }]);
    // A later release's migration, while this one still runs.
    await db.schema.withSchema(SCHEMA).alterTable("widgets", (table) => {
      table.text("colour").notNullable().defaultTo("grey");
    });
    expect((await widgetAsJson(2)).rows).toEqual([{ widget: { id: 2, name: "flange", colour: "grey" } }]);
    // Why `prepared` asks for JSON or named columns: `select *` is refused on this connection from now on.
    await expect(widgetColumns(1)).rejects.toThrow("cached plan must not change result type");
  });
});
