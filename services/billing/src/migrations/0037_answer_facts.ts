import type { Migration } from "@tollgate/kit";

export const answerFacts: Migration = {
  async up(db) {
    // A product's is_deletable asks, for a page of products at once, whether anything names each:
    // indexes on the columns that name it, so the question costs a few index probes per product.
    await db.raw("create index orders_product on orders (product_id) where product_id is not null");
    await db.raw("create index subscriptions_product on subscriptions (product_id)");
    await db.raw("create index checkouts_products on checkouts using gin (product_ids)");
    await db.raw("create index checkout_links_products on checkout_links using gin (product_ids)");
    await db.raw("create index discount_products_product on discount_products (product_id)");

    // Polar's Payment.trigger: what made the charge. Payments made before it was recorded get what
    // their rows tell: a checkout's is a purchase, a renewal order's first one its cycle, later ones
    // dunning retries; a plan change's stays unknown (null), as Polar has no trigger for it.
    await db.schema.alterTable("payments", (t) => t.text("trigger"));
    await db.raw(`update payments set trigger = 'purchase' where checkout_id is not null`);
    await db.raw(
      `update payments payment set trigger = case when attempt.number = 1 then 'subscription_cycle' else 'retry_dunning' end
       from (select p.id, row_number() over (partition by p.order_id order by p.created_at, p.id) as number
             from payments p join orders o on o.id = p.order_id
             where p.checkout_id is null and o.billing_reason = 'subscription_cycle') attempt
       where payment.id = attempt.id`,
    );

    // Polar's Customer.first_user_event_at: when the first event the seller sent about the customer
    // happened (system events do not count). Kept up by the usage measurer; here, from events so far.
    await db.schema.alterTable("customers", (t) => t.timestamp("first_user_event_at", { useTz: true }));
    await db.raw(
      `update customers customer set first_user_event_at = first.at
       from (select customer.id, min(event.timestamp) as at
             from usage_events event join customers customer on customer.organization_id = event.organization_id
               and (customer.id = event.customer_id or customer.external_id = event.external_customer_id)
             where event.source = 'user'
             group by customer.id) first
       where customer.id = first.id`,
    );
  },
};
