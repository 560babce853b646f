import type { Migration } from "@tollgate/kit";

export const checkoutSeatBounds: Migration = {
  async up(db) {
    // The seats a seller lets a checkout's buyer choose between, within the price's tiers (Polar's
    // min_seats and max_seats), and the seats a checkout link fixes for the checkouts it opens.
    await db.schema.alterTable("checkouts", (t) => {
      t.integer("min_seats");
      t.integer("max_seats");
    });
    await db.schema.alterTable("checkout_links", (t) => t.integer("seats"));
  },
};
