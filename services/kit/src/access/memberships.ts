import { memberAdded, memberRemoved, memberUpdated, organizationDeleted } from "@tollgate/proto";
import { on, type ConsumerDefinition } from "../bus/consumer.js";
import type { Knex } from "../db/connection.js";
import type { Migrations } from "../db/migrations.js";

/** Who is a member of which organization, with which roles: the organization service's, as its events tell. */
export interface MembershipRow {
  organization_id: string;
  user_id: string;
  /** better-auth's roles, comma-separated (`owner`, `admin`, `member`). */
  role: string;
}

/** The table a service keeps its membership projection in; include these with the service's migrations. */
export const membershipMigrations: Migrations = {
  "access_0001_memberships": {
    async up(db) {
      await db.schema.createTable("memberships", (t) => {
        t.text("organization_id").notNullable();
        t.text("user_id").notNullable().index();
        t.text("role").notNullable();
        t.primary(["organization_id", "user_id"]);
      });
    },
  },
};

async function upsert(trx: Knex.Transaction, row: MembershipRow): Promise<void> {
  await trx<MembershipRow>("memberships").insert(row).onConflict(["organization_id", "user_id"]).merge(["role"]);
}

/**
 * A membership a service learns of from a reply before its member.added arrives (the creator of an
 * organization it asked for): the projection's own word, already there or still to come, is kept.
 */
export async function recordMembership(db: Knex, row: MembershipRow): Promise<void> {
  await db<MembershipRow>("memberships").insert(row).onConflict(["organization_id", "user_id"]).ignore();
}

/**
 * Keeps a service's membership projection in step with the organization service, so it can check
 * a member's access with no call to another service. `name` is the durable consumer's name.
 */
export function membershipConsumer(name: string): ConsumerDefinition {
  return {
    name,
    handlers: [
      on(memberAdded, (event, { trx }) => upsert(trx, { organization_id: event.data.organization_id, user_id: event.data.user_id, role: event.data.role })),
      on(memberUpdated, (event, { trx }) => upsert(trx, { organization_id: event.data.organization_id, user_id: event.data.user_id, role: event.data.role })),
      on(memberRemoved, async (event, { trx }) => {
        await trx<MembershipRow>("memberships").where({ organization_id: event.data.organization_id, user_id: event.data.user_id }).delete();
      }),
      on(organizationDeleted, async (event, { trx }) => {
        await trx<MembershipRow>("memberships").where({ organization_id: event.data.id }).delete();
      }),
    ],
  };
}
