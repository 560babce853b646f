import { pageJson, type Knex, type Page, type Sort } from "@tollgate/kit";
import { pageOfGrants, type GRANT_SORTABLE, type GrantFilter } from "../benefits/benefits.sql.js";
import { customersWithIds } from "../customers/customers.sql.js";
import { benefitGrantJson } from "./output.js";

/** One page of grants as Polar shows them, each with its customer and benefit in full. */
export async function shownGrants(db: Knex, filter: GrantFilter, page: { page: number; limit: number; sort: Sort<keyof typeof GRANT_SORTABLE> }): Promise<Page<ReturnType<typeof benefitGrantJson>>> {
  const { rows, total, benefits } = await pageOfGrants(db, filter, page);
  const customerById = new Map((await customersWithIds(db, rows.map((grant) => grant.customer_id))).map((customer) => [customer.id, customer]));
  const benefitById = new Map(benefits.map((benefit) => [benefit.id, benefit]));
  const items = rows.flatMap((grant) => {
    const customer = customerById.get(grant.customer_id);
    const benefit = benefitById.get(grant.benefit_id);
    return customer && benefit ? [benefitGrantJson(grant, customer, benefit)] : [];
  });
  return pageJson(items, total, page.limit);
}
