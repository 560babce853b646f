import { defineEndpoint, ValidationError, type Endpoint } from "@tollgate/kit";
import { cardProblems, type SandboxProcessor } from "./sandbox.js";
import { SandboxCardInput, SandboxConfirmationToken } from "./schemas.js";

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
