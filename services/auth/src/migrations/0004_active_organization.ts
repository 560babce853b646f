import type { Migration } from "@tollgate/kit";

export const activeOrganization: Migration = {
  async up(db) {
    // Set by the organization service through NATS; the ids are that service's, not foreign keys here.
    await db.schema.alterTable("sessions", (t) => {
      t.text("active_organization_id");
      t.text("active_team_id");
    });
  },
};
