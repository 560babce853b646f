import { createHash } from "node:crypto";
import type { CustomerRow } from "./customers.sql.js";
import { shownTaxId } from "../taxes/tax-ids.js";

/** A picture for a customer without one: Gravatar's, by the address's digest, blank when they have none. */
const avatarOf = (email: string) => `https://www.gravatar.com/avatar/${createHash("sha256").update(email.trim().toLowerCase()).digest("hex")}?d=blank`;

/** A customer as Polar shows it, an individual or a team. */
export const customerJson = (customer: CustomerRow) => ({
  id: customer.id,
  created_at: customer.created_at,
  modified_at: customer.modified_at,
  metadata: customer.metadata,
  external_id: customer.external_id,
  email: customer.email,
  email_verified: customer.email_verified,
  type: customer.type,
  name: customer.name,
  billing_name: customer.billing_name,
  billing_address: customer.billing_address,
  // Polar gives the number with the format it recognised; the format is not checked here.
  tax_id: shownTaxId(customer.tax_id, customer.billing_address?.country),
  locale: customer.locale,
  organization_id: customer.organization_id,
  deleted_at: customer.deleted_at,
  first_user_event_at: customer.first_user_event_at,
  avatar_url: avatarOf(customer.email),
});
