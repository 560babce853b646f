import type { Migration } from "@tollgate/kit";

export const disputeDetails: Migration = {
  async up(db) {
    // Polar's Dispute: the customer (the disputed order's, kept with the dispute as it never changes),
    // the card network's reason, the deadline for evidence, and the disputed total split as a refund's
    // is, into amount and the tax in it (the processor reports the total).
    await db.schema.alterTable("disputes", (t) => {
      t.text("customer_id").references("id").inTable("customers");
      t.text("reason");
      t.timestamp("evidence_due_by", { useTz: true });
      t.integer("tax_amount").notNullable().defaultTo(0);
    });
    await db.raw(
      `update disputes dispute set customer_id = split.customer_id, tax_amount = coalesce(split.tax, 0), amount = dispute.amount - coalesce(split.tax, 0)
       from (select d.id, o.customer_id, round(d.amount * o.tax_amount::numeric / nullif(o.subtotal_amount - o.discount_amount + o.tax_amount, 0))::int as tax
             from disputes d join orders o on o.id = d.order_id) split
       where dispute.id = split.id`,
    );
    await db.raw("alter table disputes alter column customer_id set not null");
  },
};
