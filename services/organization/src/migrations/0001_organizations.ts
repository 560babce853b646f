import type { Migration } from "@tollgate/kit";

export const organizations: Migration = {
  async up(db) {
    // Who users are, as auth's user events tell: member views show name, e-mail and image.
    await db.schema.createTable("users", (t) => {
      t.text("id").primary();
      t.text("email").notNullable().index();
      t.text("name").notNullable();
      t.text("image");
    });
    await db.schema.createTable("organizations", (t) => {
      t.text("id").primary();
      t.text("name").notNullable();
      t.text("slug").notNullable().unique();
      t.text("logo");
      t.jsonb("metadata");
      t.timestamp("created_at", { useTz: true }).notNullable().defaultTo(db.fn.now());
    });
    await db.schema.createTable("members", (t) => {
      t.text("id").primary();
      t.text("organization_id").notNullable().references("id").inTable("organizations").onDelete("CASCADE");
      t.text("user_id").notNullable().index();
      t.text("role").notNullable();
      t.timestamp("created_at", { useTz: true }).notNullable().defaultTo(db.fn.now());
      t.unique(["organization_id", "user_id"]);
    });
    await db.schema.createTable("teams", (t) => {
      t.text("id").primary();
      t.text("organization_id").notNullable().references("id").inTable("organizations").onDelete("CASCADE");
      t.text("name").notNullable();
      t.timestamp("created_at", { useTz: true }).notNullable().defaultTo(db.fn.now());
      t.timestamp("updated_at", { useTz: true });
    });
    await db.schema.createTable("team_members", (t) => {
      t.text("id").primary();
      t.text("team_id").notNullable().references("id").inTable("teams").onDelete("CASCADE");
      t.text("user_id").notNullable().index();
      t.timestamp("created_at", { useTz: true }).notNullable().defaultTo(db.fn.now());
      t.unique(["team_id", "user_id"]);
    });
    await db.schema.createTable("invitations", (t) => {
      t.text("id").primary();
      t.text("organization_id").notNullable().references("id").inTable("organizations").onDelete("CASCADE");
      t.text("email").notNullable().index();
      t.text("role").notNullable();
      t.text("status").notNullable().defaultTo("pending");
      t.text("team_id");
      t.text("inviter_id").notNullable();
      t.timestamp("expires_at", { useTz: true }).notNullable();
      t.timestamp("created_at", { useTz: true }).notNullable().defaultTo(db.fn.now());
    });
  },
};
