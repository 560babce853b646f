import { pageJson, type Knex, type Page, type Sort } from "@tollgate/kit";
import { pageOfGrants, type GRANT_SORTABLE, type GrantFilter } from "../benefits/benefits.sql.js";
import { customersWithIds } from "../customers/customers.sql.js";
import { membersWithIds } from "../members/members.sql.js";
import { benefitGrantJson } from "./output.js";

/** One page of grants as Polar shows them, each with its customer, the seat member holding it and its benefit in full. */
export async function shownGrants(db: Knex, filter: GrantFilter, page: { page: number; limit: number; sort: Sort<keyof typeof GRANT_SORTABLE> }): Promise<Page<ReturnType<typeof benefitGrantJson>>> {
  const { rows, total, benefits } = await pageOfGrants(db, filter, page);
  const memberIds = [...new Set(rows.flatMap((grant) => (grant.member_id ? [grant.member_id] : [])))];
  const [customers, members] = await Promise.all([customersWithIds(db, rows.map((grant) => grant.customer_id)), memberIds.length > 0 ? membersWithIds(db, memberIds) : []]);
  const customerById = new Map(customers.map((customer) => [customer.id, customer]));
  const memberById = new Map(members.map((member) => [member.id, member]));
  const benefitById = new Map(benefits.map((benefit) => [benefit.id, benefit]));
  const items = rows.flatMap((grant) => {
    const customer = customerById.get(grant.customer_id);
    const benefit = benefitById.get(grant.benefit_id);
    return customer && benefit ? [benefitGrantJson(grant, customer, benefit, (grant.member_id && memberById.get(grant.member_id)) || null)] : [];
  });
  return pageJson(items, total, page.limit);
}
