import { z } from "zod";
import { defineEndpoint, type Endpoint } from "@tollgate/kit";
import { CustomerCustomerSession, CustomerSessionCodeAuthenticateRequest, CustomerSessionCodeAuthenticateResponse, CustomerSessionCodeRequest, PortalAuthenticatedUser } from "../schemas.js";
import { authenticateWithCode, introspectSession, portalUser, requestSignInCode } from "../sign-in.js";
import type { Parts } from "../../parts.js";

const TAG = "customer_portal";

/**
 * Signing in to a seller's portal without a link: a code by e-mail (202 whether or not anyone has
 * that e-mail), exchanged for a customer session token; and what a token's holder may learn of it.
 */
export function portalSessionEndpoints(parts: Pick<Parts, "db" | "units" | "config">): Endpoint[] {
  return [
    defineEndpoint(
      "/v1/customer-portal/customer-session/request",
      { method: "POST", status: 202, body: CustomerSessionCodeRequest, response: z.null(), summary: "Send a sign-in code to a customer's e-mail", tag: TAG },
      async ({ body, req }) => {
        await requestSignInCode(parts, body, req.get("accept-language")?.split(/[,;]/)[0]?.trim() || null);
        // As Polar answers it: a JSON null, whoever asked.
        return null;
      },
    ),
    defineEndpoint(
      "/v1/customer-portal/customer-session/authenticate",
      { method: "POST", body: CustomerSessionCodeAuthenticateRequest, response: CustomerSessionCodeAuthenticateResponse, summary: "Open a customer session with a sign-in code", tag: TAG },
      async ({ body }) => authenticateWithCode(parts, body.code),
    ),
    defineEndpoint("/v1/customer-portal/customer-session/introspect", { method: "GET", response: CustomerCustomerSession, summary: "Introspect the customer session", tag: TAG }, async ({ identity }) =>
      introspectSession(parts, identity),
    ),
    defineEndpoint("/v1/customer-portal/customer-session/user", { method: "GET", response: PortalAuthenticatedUser, summary: "Get the portal's signed-in user", tag: TAG }, async ({ identity }) =>
      portalUser(parts, identity),
    ),
  ];
}
