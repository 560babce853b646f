import { createHash } from "node:crypto";
import { z } from "zod";
import { defineEndpoint, invalidField, randomId, type Endpoint, type Knex, type Outbox, webUrl } from "@tollgate/kit";
import { accessTokenRevoked } from "@tollgate/proto";
import type { Billing } from "../billing.js";
import { customerJson } from "../customers/output.js";
import { customers } from "../customers/customers.sql.js";
import { findSeller } from "../organizations/organizations.sql.js";
import { CustomerSession } from "./schemas.js";

/** How long a customer session opens the portal. */
const SESSION_LIFETIME_MS = 60 * 60 * 1000;

export interface CustomerSessionRow {
  id: string;
  token_hash: string;
  organization_id: string;
  customer_id: string;
  return_url: string | null;
  expires_at: Date;
  created_at: Date;
  modified_at: Date | null;
}

export const tokenHashOf = (token: string) => createHash("sha256").update(token).digest("hex");

/** The live session a token digest belongs to, if any (the gateway asks, through billing's responder). */
export const liveSession = (db: Knex, tokenHash: string) => db<CustomerSessionRow>("customer_sessions").where({ token_hash: tokenHash }).where("expires_at", ">", new Date()).first();

const createBody = z.union([
  z.object({ customer_id: z.string(), return_url: webUrl().nullish() }),
  z.object({ external_customer_id: z.string(), return_url: webUrl().nullish() }),
]);

/** `POST /v1/customer-sessions/`: a seller opens the customer portal for one of their customers. */
export function customerSessionEndpoints(billing: Billing): Endpoint[] {
  const { db, access, config } = billing;
  return [
    defineEndpoint("/v1/customer-sessions/", { method: "POST", status: 201, body: createBody, response: CustomerSession, summary: "Open the customer portal for a customer", tag: "customer-sessions" }, async ({ body, identity }) => {
      const organizationIds = await access.organizationIds(identity, "customer_sessions:write");
      const customer = await customers(db)
        .whereIn("organization_id", organizationIds)
        .where("customer_id" in body ? { id: body.customer_id } : { external_id: body.external_customer_id })
        .first();
      if (!customer) throw invalidField(["customer_id" in body ? "customer_id" : "external_customer_id"], "Customer not found", "customer_id" in body ? body.customer_id : body.external_customer_id);
      const token = `polar_cst_${randomId(48)}`;
      const [session] = await db<CustomerSessionRow>("customer_sessions")
        .insert({ id: randomId(32), token_hash: tokenHashOf(token), organization_id: customer.organization_id, customer_id: customer.id, return_url: body.return_url ?? null, expires_at: new Date(Date.now() + SESSION_LIFETIME_MS) })
        .returning("*");
      if (!session) throw new Error("insert into customer_sessions returned no row");
      const seller = await findSeller(db, customer.organization_id);
      return {
        id: session.id,
        created_at: session.created_at,
        modified_at: session.modified_at,
        token,
        expires_at: session.expires_at,
        return_url: session.return_url,
        customer_portal_url: `${config.PUBLIC_URL.replace(/\/$/, "")}/${seller?.slug ?? customer.organization_id}/portal?customer_session_token=${token}`,
        customer_id: customer.id,
        customer: customerJson(customer),
      };
    }),
  ];
}

/**
 * Ends every portal session of a deleted customer, and has the gateway drop its cached copy of
 * each: a customer session is a bearer token there, forgotten through the same event as a revoked
 * access token.
 */
export async function endCustomerSessions(outbox: Outbox, trx: Knex.Transaction, customerId: string): Promise<void> {
  const ended = await trx<CustomerSessionRow>("customer_sessions").where({ customer_id: customerId }).delete().returning(["id", "token_hash"]);
  for (const session of ended) await outbox.emit(trx, accessTokenRevoked, { id: session.id, token_hash: session.token_hash });
}
