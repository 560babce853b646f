import type { Migration } from "@tollgate/kit";

export const customerOwners: Migration = {
  async up(db) {
    // Every customer has an owner member (Polar's), made with them from now on; the customers made
    // before get theirs here, with their own e-mail, name and external id, as of when they were made.
    await db.raw(`
      insert into members (id, organization_id, customer_id, email, name, external_id, role, created_at)
      select replace(gen_random_uuid()::text, '-', ''), customer.organization_id, customer.id, customer.email, customer.name, customer.external_id, 'owner', customer.created_at
      from customers customer
      where customer.deleted_at is null
        and not exists (select 1 from members member where member.customer_id = customer.id and member.role = 'owner' and member.deleted_at is null)
    `);
  },
};
