import { type Knex, pageJson, pageOf, type Page, type Sort } from "@tollgate/kit";
import { customerJson } from "../customers/output.js";
import type { CustomerRow } from "../customers/customers.sql.js";
import type { BenefitRow } from "./benefits.sql.js";
import { benefitJson } from "./output.js";

export interface BenefitGrantRow {
  id: string;
  benefit_id: string;
  customer_id: string;
  subscription_id: string | null;
  order_id: string | null;
  granted_at: Date | null;
  revoked_at: Date | null;
  properties: Record<string, unknown>;
  error: { message: string; type: string; timestamp: string } | null;
  created_at: Date;
  modified_at: Date | null;
}

/** A grant as Polar shows it: with its customer and benefit in full. */
export const benefitGrantJson = (grant: BenefitGrantRow, customer: CustomerRow, benefit: BenefitRow) => ({
  id: grant.id,
  created_at: grant.created_at,
  modified_at: grant.modified_at,
  granted_at: grant.granted_at,
  is_granted: grant.granted_at !== null && grant.revoked_at === null,
  revoked_at: grant.revoked_at,
  is_revoked: grant.revoked_at !== null,
  subscription_id: grant.subscription_id,
  order_id: grant.order_id,
  customer_id: grant.customer_id,
  member_id: null,
  benefit_id: grant.benefit_id,
  error: grant.error,
  customer: customerJson(customer),
  member: null,
  benefit: benefitJson(benefit),
  properties: grant.properties,
});

const SORTABLE = { created_at: "benefit_grants.created_at", granted_at: "benefit_grants.granted_at", revoked_at: "benefit_grants.revoked_at" } as const;

/** One page of grants within the organizations given, filtered as the grant endpoints allow. */
export async function grantsPage(
  db: Knex,
  filters: {
    page: number;
    limit: number;
    organizationIds: string[];
    benefitIds?: string[];
    customer_id?: string[];
    externalCustomerIds?: string[];
    is_granted?: boolean;
    sort: Sort<keyof typeof SORTABLE>;
  },
): Promise<Page<ReturnType<typeof benefitGrantJson>>> {
  const found = db<BenefitGrantRow>("benefit_grants")
    .join("customers", "customers.id", "benefit_grants.customer_id")
    .whereIn("customers.organization_id", filters.organizationIds)
    .select("benefit_grants.*");
  if (filters.benefitIds) void found.whereIn("benefit_grants.benefit_id", filters.benefitIds);
  if (filters.customer_id) void found.whereIn("benefit_grants.customer_id", filters.customer_id);
  if (filters.externalCustomerIds) void found.whereIn("customers.external_id", filters.externalCustomerIds);
  if (filters.is_granted === true) void found.whereNotNull("benefit_grants.granted_at").whereNull("benefit_grants.revoked_at");
  if (filters.is_granted === false) void found.where((revoked) => void revoked.whereNull("benefit_grants.granted_at").orWhereNotNull("benefit_grants.revoked_at"));
  const { rows, total } = await pageOf<BenefitGrantRow, keyof typeof SORTABLE>(found, { ...filters, columns: SORTABLE, table: "benefit_grants" });
  const [customers, benefits] = await Promise.all([
    db<CustomerRow>("customers").whereIn("id", rows.map((grant) => grant.customer_id)),
    db<BenefitRow>("benefits").whereIn("id", rows.map((grant) => grant.benefit_id)),
  ]);
  const customerById = new Map(customers.map((customer) => [customer.id, customer]));
  const benefitById = new Map(benefits.map((benefit) => [benefit.id, benefit]));
  const items = rows.flatMap((grant) => {
    const customer = customerById.get(grant.customer_id);
    const benefit = benefitById.get(grant.benefit_id);
    return customer && benefit ? [benefitGrantJson(grant, customer, benefit)] : [];
  });
  return pageJson(items, total, filters.limit);
}
