import type { CustomerRow } from "../customers/customers.sql.js";
import { customerJson } from "../customers/output.js";
import type { CustomerSessionRow } from "./customer-sessions.sql.js";

/** A new customer session as Polar shows it: the token is shown this once. */
export const customerSessionJson = (session: CustomerSessionRow, token: string, customer: CustomerRow, portalUrl: string) => ({
  id: session.id,
  created_at: session.created_at,
  modified_at: session.modified_at,
  token,
  expires_at: session.expires_at,
  return_url: session.return_url,
  customer_portal_url: portalUrl,
  customer_id: customer.id,
  customer: customerJson(customer),
});
