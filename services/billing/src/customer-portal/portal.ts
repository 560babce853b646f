import { HttpError, notFound, polarErrors, type Knex } from "@tollgate/kit";
import type { IdentityClaims } from "@tollgate/proto";
import { sellerSummaryJson } from "../organizations/output.js";
import { findSeller } from "../organizations/organizations.sql.js";

/** The customer a portal call is for: only a customer session opens the portal. */
export function customerOf(identity: IdentityClaims): { customer_id: string; organization_id: string } {
  if (identity.kind !== "customer_session") throw new HttpError(401, polarErrors.codes.unauthorized, "A customer session token is required.");
  return identity;
}

/** The row, found among the customer's own, or 404 whether it is someone else's or nobody's. */
export function mine<Row>(found: Row | undefined, what: string): Row {
  if (!found) throw notFound(what);
  return found;
}

/** The seller, as the portal names it beside products and benefits. */
export async function portalOrganization(db: Knex, organizationId: string) {
  const seller = await findSeller(db, organizationId);
  if (!seller) throw notFound("Organization");
  return sellerSummaryJson(seller);
}
