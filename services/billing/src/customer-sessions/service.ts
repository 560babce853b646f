import { createHash } from "node:crypto";
import { HttpError, invalidField, notFound, polarErrors, randomId, type UnitOfWork } from "@tollgate/kit";
import { accessTokenRevoked, type IdentityClaims } from "@tollgate/proto";
import { findCustomer, findCustomerByExternalId } from "../customers/customers.sql.js";
import { findSeller } from "../organizations/organizations.sql.js";
import { deleteCustomerSessions, insertCustomerSession } from "./customer-sessions.sql.js";
import { customerSessionJson } from "./output.js";
import type { Parts } from "../parts.js";

/** How long a customer session opens the portal. */
const SESSION_LIFETIME_MS = 60 * 60 * 1000;

const tokenHashOf = (token: string) => createHash("sha256").update(token).digest("hex");

/** A seller opens the customer portal for one of their customers: a new bearer token, and the portal's address with it. */
export async function openCustomerSession(
  { db, access, config }: Pick<Parts, "db" | "access" | "config">,
  identity: IdentityClaims,
  request: ({ customer_id: string } | { external_customer_id: string }) & { return_url?: string | null | undefined },
) {
  const organizationIds = await access.organizationIds(identity, "customer_sessions:write");
  const named = "customer_id" in request ? await findCustomer(db, request.customer_id) : await findCustomerByExternalId(db, organizationIds, request.external_customer_id);
  const customer = named && organizationIds.includes(named.organization_id) ? named : undefined;
  if (!customer) throw invalidField(["customer_id" in request ? "customer_id" : "external_customer_id"], "Customer not found", "customer_id" in request ? request.customer_id : request.external_customer_id);
  const token = `polar_cst_${randomId(48)}`;
  const session = await insertCustomerSession(db, { id: randomId(32), token_hash: tokenHashOf(token), organization_id: customer.organization_id, customer_id: customer.id, return_url: request.return_url ?? null, expires_at: new Date(Date.now() + SESSION_LIFETIME_MS) });
  const seller = await findSeller(db, customer.organization_id);
  return customerSessionJson(session, token, customer, `${config.PUBLIC_URL.replace(/\/$/, "")}/${seller?.slug ?? customer.organization_id}/portal?customer_session_token=${token}`);
}

/**
 * Ends every portal session of a deleted customer, and has the gateway drop its cached copy of
 * each: a customer session is a bearer token there, forgotten through the same event as a revoked
 * access token.
 */
export async function endCustomerSessions(unit: UnitOfWork, customerId: string): Promise<void> {
  for (const session of await deleteCustomerSessions(unit.db, customerId)) unit.announce(accessTokenRevoked, { id: session.id, token_hash: session.token_hash });
}

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
