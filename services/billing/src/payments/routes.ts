import { z } from "zod";
import { defineEndpoint, ValidationError, type Endpoint } from "@tollgate/kit";
import { cardProblems, type SandboxProcessor } from "./sandbox.js";
import { SandboxConfirmationToken } from "./schemas.js";

const tokenBody = z.object({
  /**
   * Spaces and dashes, as people type them, are ignored. The pattern is on the text as sent, so that
   * the API's description says what is taken (a pattern after the transform would not be described).
   */
  card_number: z
    .string()
    .regex(/^[\s-]*(?:\d[\s-]*){12,19}$/, { error: "Enter the card number's 12 to 19 digits" })
    .transform((value) => value.replace(/[\s-]/g, "")),
  exp_month: z.int().min(1).max(12),
  exp_year: z.int().min(2000).max(2100),
  cvc: z.string().regex(/^\d{3,4}$/, { error: "Enter the 3 or 4 digits on the back of the card" }),
});

/**
 * The sandbox's stand-in for Stripe.js: the hosted checkout page (or any client) turns a test card
 * into a single-use confirmation token, then confirms the checkout with `confirmation_token_id`.
 * Public, like Stripe's publishable-key calls: a token is worth nothing without a checkout.
 */
export function sandboxEndpoints(sandbox: SandboxProcessor): Endpoint[] {
  return [
    defineEndpoint(
      "/v1/sandbox/confirmation-tokens",
      { method: "POST", status: 201, body: tokenBody, response: SandboxConfirmationToken, summary: "Turn a test card into a confirmation token", tag: "sandbox/confirmation-tokens" },
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
