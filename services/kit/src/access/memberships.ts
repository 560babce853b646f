import { memberAdded, memberRemoved, memberUpdated, organizationCreated, organizationDeleted, organizationUpdated } from "@tollgate/proto";
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

/** What an organization asks of its members before they may act for it, as the organization service's events tell. */
export interface OrganizationRequirementRow {
  organization_id: string;
  require_two_factor: boolean;
}

/** The tables a service keeps its membership projection in; include these with the service's migrations. */
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
  "access_0002_organization_requirements": {
    async up(db) {
      await db.schema.createTable("organization_requirements", (t) => {
        t.text("organization_id").primary();
        t.boolean("require_two_factor").notNullable().defaultTo(false);
      });
    },
  },
};

async function upsert(trx: Knex.Transaction, row: MembershipRow): Promise<void> {
  await trx<MembershipRow>("memberships").insert(row).onConflict(["organization_id", "user_id"]).merge(["role"]);
}

/** Events written before organizations could require two-factor leave it out: they required none. */
const requirementOf = (organization: { id: string; require_two_factor?: boolean }): OrganizationRequirementRow => ({
  organization_id: organization.id,
  require_two_factor: organization.require_two_factor ?? false,
});

async function upsertRequirement(trx: Knex.Transaction, row: OrganizationRequirementRow): Promise<void> {
  await trx<OrganizationRequirementRow>("organization_requirements").insert(row).onConflict("organization_id").merge(["require_two_factor"]);
}

/**
 * A membership a service learns of from a reply before its member.added arrives (the creator of an
 * organization it asked for): the projection's own word, already there or still to come, is kept.
 */
export async function recordMembership(db: Knex, row: MembershipRow): Promise<void> {
  await db<MembershipRow>("memberships").insert(row).onConflict(["organization_id", "user_id"]).ignore();
}

/**
 * Keeps a service's membership projection (members and what their organizations require of them) in
 * step with the organization service, so it can check a member's access with no call to another service. `name` is the durable consumer's name.
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
      on(organizationCreated, (event, { trx }) => upsertRequirement(trx, requirementOf(event.data))),
      on(organizationUpdated, (event, { trx }) => upsertRequirement(trx, requirementOf(event.data))),
      on(organizationDeleted, async (event, { trx }) => {
        await trx<MembershipRow>("memberships").where({ organization_id: event.data.id }).delete();
        await trx<OrganizationRequirementRow>("organization_requirements").where({ organization_id: event.data.id }).delete();
      }),
    ],
  };
}
