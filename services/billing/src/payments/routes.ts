import { z } from "zod";
import { defineEndpoint, pageJson, reachable, ValidationError, type Endpoint } from "@tollgate/kit";
import type { Parts } from "../parts.js";
import { findCustomer, reachableByExternalId, type CustomerRow } from "../customers/service.js";
import { paymentJson, paymentMethodJson } from "./output.js";
import { cardProblems, type SandboxProcessor } from "./sandbox.js";
import { CustomerPaymentMethodList, CustomerPaymentMethodListQuery, Payment, PaymentList, PaymentListQuery, SandboxCardInput, SandboxConfirmationToken } from "./schemas.js";
import { findPayment, pageOfPaymentMethods, pageOfPayments } from "./service.js";

/** Every charge attempt, sandbox and Stripe alike, as Polar's SDK lists and reads them; and the cards a customer keeps. */
export function paymentEndpoints({ db, access }: Pick<Parts, "db" | "access">): Endpoint[] {
  /** A page of the customer's kept cards, the default one marked. */
  const cardsOf = async (customer: CustomerRow, page: z.output<typeof CustomerPaymentMethodListQuery>) => {
    const { rows, total } = await pageOfPaymentMethods(db, customer.id, page);
    return pageJson(rows.map((row) => paymentMethodJson(row, customer.default_payment_method_id)), total, page.limit);
  };
  return [
    defineEndpoint("/v1/payments/", { method: "GET", query: PaymentListQuery, response: PaymentList, summary: "List payments", tag: "payments" }, async ({ query, identity }) => {
      const organizationIds = await access.organizationIds(identity, "payments:read");
      const { customer_email: customerEmails, customer_id: customerIds, method: methods, ...filters } = query;
      const { rows, total } = await pageOfPayments(db, { organizationIds, filters, customerEmails, customerIds, methods }, { ...query, sort: query.sorting });
      return pageJson(rows.map(paymentJson), total, query.limit);
    }),
    defineEndpoint("/v1/payments/:id", { method: "GET", params: z.object({ id: z.string() }), response: Payment, summary: "Get a payment", tag: "payments" }, async ({ params, identity }) =>
      paymentJson(await reachable(access, identity, "payments:read", await findPayment(db, params.id), "Payment")),
    ),
    defineEndpoint(
      "/v1/customers/:id/payment-methods",
      { method: "GET", params: z.object({ id: z.string() }), query: CustomerPaymentMethodListQuery, response: CustomerPaymentMethodList, summary: "List a customer's saved cards", tag: "customers" },
      async ({ params, query, identity }) => cardsOf(await reachable(access, identity, "customers:read", await findCustomer(db, params.id), "Customer"), query),
    ),
    defineEndpoint(
      "/v1/customers/external/:externalId/payment-methods",
      { method: "GET", params: z.object({ externalId: z.string() }), query: CustomerPaymentMethodListQuery, response: CustomerPaymentMethodList, summary: "List the saved cards of a customer found by external ID", tag: "customers" },
      async ({ params, query, identity }) => cardsOf(await reachableByExternalId(db, access, identity, "customers:read", params.externalId), query),
    ),
  ];
}

/**
 * The sandbox's stand-in for Stripe.js: the hosted checkout page (or any client) turns a test card
 * into a single-use confirmation token, then confirms the checkout with `confirmation_token_id`.
 * Public, like Stripe's publishable-key calls: a token is worth nothing without a checkout.
 */
export function sandboxEndpoints(sandbox: SandboxProcessor): Endpoint[] {
  return [
    defineEndpoint(
      "/v1/sandbox/confirmation-tokens",
      { method: "POST", status: 201, body: SandboxCardInput, response: SandboxConfirmationToken, summary: "Turn a test card into a confirmation token", tag: "sandbox/confirmation-tokens" },
      async ({ body }) => {
        const card = { number: body.card_number, exp_month: body.exp_month, exp_year: body.exp_year };
        const problems = cardProblems(card);
        if (problems.length > 0) {
          throw new ValidationError(problems.map(({ field, message }) => ({ location: "body", path: [field], message, code: "value_error", input: field === "card_number" ? "…" + card.number.slice(-4) : body[field as "exp_year"] })));
        }
        const token = await sandbox.createConfirmationToken(card);
        return { id: token.id, card: token.card, expires_at: token.expires_at.toISOString() };
      },
    ),
  ];
}
