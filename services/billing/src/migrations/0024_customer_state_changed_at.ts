import type { Migration } from "@tollgate/kit";

export const customerStateChangedAt: Migration = {
  async up(db) {
    // A scheduled state change records when the customer's state last changed; the announcer alone
    // knows how long a burst settles, so the row no longer carries a due time computed by its writer.
    await db.raw("alter table customer_state_changes rename column run_at to changed_at");
    await db.raw("alter index customer_state_changes_run_at_index rename to customer_state_changes_changed_at_index");
  },
};
