import { z } from "zod";
import { defineEndpoint, pageJson, type Endpoint } from "@tollgate/kit";
import { portalCustomerJson, savedCardJson } from "../output.js";
import { paymentMethodJson } from "../../payments/output.js";
import { checkEmailUpdate, requestEmailUpdate, verifyEmailUpdate } from "../email-update.js";
import {
  CustomerEmailUpdateCheckQuery,
  CustomerEmailUpdateRequest,
  CustomerEmailUpdateVerifyRequest,
  CustomerEmailUpdateVerifyResponse,
  CustomerPaymentMethodCreateResponse,
  CustomerPortalCustomer, CustomerPortalCustomerUpdate, PaymentMethodConfirm, PaymentMethodCreate, PaymentMethodList, PaymentMethodListQuery, PortalPaymentProcessor } from "../schemas.js";
import { changeBillingDetails, confirmCustomerCard, customerCards, forgetCustomerCard, portalCustomer, saveCustomerCard } from "../service.js";
import type { Parts } from "../../parts.js";

const TAG = "customer_portal";

/**
 * The customer's own profile in the portal: read it, correct their billing details, change their
 * e-mail (confirmed from a link mailed to the new address), and keep, choose and forget cards.
 */
export function portalCustomerEndpoints(parts: Pick<Parts, "db" | "units" | "config" | "processor" | "logger"> & { wakeRenewals: () => void }): Endpoint[] {
  return [
    defineEndpoint("/v1/customer-portal/customers/me", { method: "GET", response: CustomerPortalCustomer, summary: "Get the customer", tag: TAG }, async ({ identity }) =>
      portalCustomerJson(await portalCustomer(parts.db, identity)),
    ),
    defineEndpoint("/v1/customer-portal/customers/me", { method: "PATCH", body: CustomerPortalCustomerUpdate, response: CustomerPortalCustomer, summary: "Update the customer's billing details", tag: TAG }, async ({ body, identity }) =>
      portalCustomerJson(await changeBillingDetails(parts, identity, body)),
    ),
    defineEndpoint(
      "/v1/customer-portal/customers/me/email-update/request",
      { method: "POST", status: 202, body: CustomerEmailUpdateRequest, response: z.null(), summary: "Request an e-mail change: a link to confirm it goes to the new address", tag: TAG },
      async ({ body, identity }) => {
        await requestEmailUpdate(parts, identity, body.email);
        // As Polar answers it: a JSON null.
        return null;
      },
    ),
    // The token is the credential of these two: whoever holds the link proved they read the new address.
    defineEndpoint(
      "/v1/customer-portal/customers/me/email-update/check",
      { method: "GET", status: 204, query: CustomerEmailUpdateCheckQuery, summary: "Check that an e-mail change's token still works", tag: TAG },
      async ({ query }) => checkEmailUpdate(parts.db, query.token),
    ),
    defineEndpoint(
      "/v1/customer-portal/customers/me/email-update/verify",
      { method: "POST", body: CustomerEmailUpdateVerifyRequest, response: CustomerEmailUpdateVerifyResponse, summary: "Confirm an e-mail change with the token mailed to the new address", tag: TAG },
      async ({ body }) => verifyEmailUpdate(parts, body.token),
    ),
    defineEndpoint(
      "/v1/customer-portal/customers/me/payment-methods",
      { method: "POST", status: 201, body: PaymentMethodCreate, response: CustomerPaymentMethodCreateResponse, summary: "Save a card for the customer", tag: TAG },
      async ({ body, identity }) => savedCardJson(await saveCustomerCard(parts, identity, body)),
    ),
    defineEndpoint(
      "/v1/customer-portal/customers/me/payment-methods",
      { method: "GET", query: PaymentMethodListQuery, response: PaymentMethodList, summary: "List the customer's saved cards", tag: TAG },
      async ({ query, identity }) => {
        const { rows, total, defaultId } = await customerCards(parts.db, identity, query);
        return pageJson(rows.map((row) => paymentMethodJson(row, defaultId)), total, query.limit);
      },
    ),
    defineEndpoint(
      "/v1/customer-portal/customers/me/payment-methods/:id",
      { method: "DELETE", status: 204, params: z.object({ id: z.string() }), summary: "Forget one of the customer's saved cards", tag: TAG },
      async ({ params, identity }) => forgetCustomerCard(parts, identity, params.id),
    ),
    defineEndpoint(
      "/v1/customer-portal/payment-processor",
      { method: "GET", response: PortalPaymentProcessor, summary: "How a customer's page takes a card (Tollgate's own: Polar's portal knows its one processor)", tag: TAG },
      () => Promise.resolve({ processor: parts.config.PAYMENT_PROCESSOR, publishable_key: parts.config.PAYMENT_PROCESSOR === "stripe" ? (parts.config.STRIPE_PUBLISHABLE_KEY ?? null) : null }),
    ),
    defineEndpoint(
      "/v1/customer-portal/customers/me/payment-methods/confirm",
      { method: "POST", status: 201, body: PaymentMethodConfirm, response: CustomerPaymentMethodCreateResponse, summary: "Keep a card once the customer's bank has checked it", tag: TAG },
      async ({ body, identity }) => savedCardJson(await confirmCustomerCard(parts, identity, body)),
    ),
  ];
}
