import { pageOf, prepared, randomId, whereAnyOf, type Knex, type Sort } from "@tollgate/kit";
import type { CardSummary, SettledOutcome } from "./processor.js";

/**
 * Records what the processor said of a charge, succeeded or declined. The processor's payment id is
 * unique, so recording the answer to a retried call (the same payment) again adds nothing. A change
 * to await, or to write with a unit's others.
 */
export function recordPayment(
  db: Knex,
  payment: { organization_id: string; checkout_id: string | null; order_id: string | null; processor: string; amount: number; currency: string; trigger: PaymentTrigger | null },
  outcome: SettledOutcome,
): Knex.QueryBuilder {
  return db("payments")
    .insert({
      ...payment,
      id: randomId(32),
      processor_payment_id: outcome.processorPaymentId,
      status: outcome.status === "succeeded" ? "succeeded" : "failed",
      card_brand: outcome.card?.brand ?? null,
      card_last4: outcome.card?.last4 ?? null,
      decline_code: outcome.status === "declined" ? outcome.declineCode : null,
      decline_message: outcome.status === "declined" ? outcome.message : null,
    })
    .onConflict("processor_payment_id")
    .ignore();
}

/** What made a charge, as Polar's Payment.trigger names it (of its six, the five Tollgate makes). */
export type PaymentTrigger = "purchase" | "subscription_cycle" | "retry_dunning" | "retry_customer" | "retry_payment_method_update";

/** A charge attempt as recorded: the processor's answer, with what was shown of the card. */
export interface PaymentRow {
  id: string;
  organization_id: string;
  checkout_id: string | null;
  order_id: string | null;
  processor: string;
  processor_payment_id: string | null;
  status: "succeeded" | "failed";
  amount: number;
  currency: string;
  card_brand: string | null;
  card_last4: string | null;
  decline_code: string | null;
  decline_message: string | null;
  /** Null for a plan change's charge, for which Polar names no trigger. */
  trigger: PaymentTrigger | null;
  created_at: Date;
  modified_at: Date | null;
}

const payments = (db: Knex) => db<PaymentRow>("payments");

export const findPayment = (db: Knex, id: string) => payments(db).where({ id }).first();

/** The payment the processor knows by its id (a payment intent's). */
export const findPaymentByProcessorId = (db: Knex, processorPaymentId: string) => payments(db).where({ processor_payment_id: processorPaymentId }).first();

/** The charges made for an order (by `trigger` alone, when given), newest first. */
export function paymentsOfOrder(db: Knex, orderId: string, trigger?: PaymentTrigger): Promise<PaymentRow[]> {
  const found = payments(db).where({ order_id: orderId }).orderBy([{ column: "created_at", order: "desc" }, { column: "id", order: "desc" }]);
  if (trigger) void found.where({ trigger });
  return found;
}

export const PAYMENT_SORTABLE = { created_at: "created_at", status: "status", amount: "amount", method: "processor" } as const;

/** Which payments a list asks for: within the organizations given, by any of the ids, statuses or buyers' e-mails given. */
export interface PaymentFilter {
  organizationIds: string[];
  filters: Partial<Record<"organization_id" | "checkout_id" | "order_id" | "status", string[]>>;
  customerEmails?: string[];
  customerIds?: string[];
  /** Every payment is by card: any other method asked for alone finds none. */
  methods?: string[];
}

export function pageOfPayments(db: Knex, { organizationIds, filters, customerEmails, customerIds, methods }: PaymentFilter, page: { page: number; limit: number; sort: Sort<keyof typeof PAYMENT_SORTABLE> }) {
  const found = payments(db).whereIn("organization_id", organizationIds);
  whereAnyOf(found, filters, ["organization_id", "checkout_id", "order_id", "status"]);
  if (methods && !methods.includes("card")) void found.whereRaw("false");
  if (customerEmails) {
    const emails = customerEmails.map((email) => email.toLowerCase());
    // crosses into checkouts, orders and customers: whose payment it is, the checkout's buyer or the
    // customer of the order it paid, read here for the filter alone.
    void found.where((either) =>
      either
        .whereIn("checkout_id", db("checkouts").select("id").whereRaw("lower(customer_email) = any(?)", [emails]))
        .orWhereIn("order_id", db("orders").join("customers", "customers.id", "orders.customer_id").select("orders.id").whereRaw("lower(customers.email) = any(?)", [emails])),
    );
  }
  if (customerIds) {
    // crosses into checkouts and orders: the customer a checkout made or an order belongs to, read here for the filter alone.
    void found.where((either) =>
      either.whereIn("checkout_id", db("checkouts").select("id").whereIn("customer_id", customerIds)).orWhereIn("order_id", db("orders").select("id").whereIn("customer_id", customerIds)),
    );
  }
  return pageOf<PaymentRow, keyof typeof PAYMENT_SORTABLE>(found, { ...page, columns: PAYMENT_SORTABLE, table: "payments" });
}

/** The processor's id of the charge that paid an order, if one succeeded. */
export async function succeededPaymentOf(db: Knex, orderId: string): Promise<string | undefined> {
  const payment = await db("payments").where({ order_id: orderId, status: "succeeded" }).first<{ processor_payment_id: string } | undefined>("processor_payment_id");
  return payment?.processor_payment_id;
}

export interface PaymentMethodRow {
  id: string;
  customer_id: string;
  card: unknown;
  created_at: Date;
  modified_at: Date | null;
}

/** Keeps a customer's card (by the processor's id for it: saving it again only refreshes it). A change to await, or to write with a unit's others. */
export const keepPaymentMethod = (db: Knex, method: { id: string; customer_id: string; card: object }): Knex.QueryBuilder =>
  db<PaymentMethodRow>("customer_payment_methods")
    .insert({ ...method, card: JSON.stringify(method.card) })
    .onConflict("id")
    .merge();

/** Keeps a customer's card, and reads it back. */
export async function savePaymentMethod(db: Knex, method: { id: string; customer_id: string; card: object }): Promise<PaymentMethodRow> {
  const [row] = (await keepPaymentMethod(db, method).returning("*")) as PaymentMethodRow[];
  if (!row) throw new Error("the card was not recorded");
  return row;
}

const paymentMethods = (db: Knex) => db<PaymentMethodRow>("customer_payment_methods");

/** A page of a customer's kept cards, newest first. */
export const pageOfPaymentMethods = (db: Knex, customerId: string, page: { page: number; limit: number }) =>
  pageOf<PaymentMethodRow, "created_at">(paymentMethods(db).where({ customer_id: customerId }), { ...page, sort: [{ property: "created_at", descending: true }], columns: { created_at: "created_at" }, table: "customer_payment_methods" });

export const findCustomersPaymentMethod = (db: Knex, customerId: string, id: string) => paymentMethods(db).where({ id, customer_id: customerId }).first();

/** The newest of a customer's cards other than `exceptId`, if any. */
export const otherPaymentMethodOf = (db: Knex, customerId: string, exceptId: string) => paymentMethods(db).where({ customer_id: customerId }).whereNot({ id: exceptId }).orderBy("created_at", "desc").first();

export const deletePaymentMethod = (db: Knex, id: string) => paymentMethods(db).where({ id }).delete();

/** What a sandbox test card does when it is charged. */
export type CardBehaviour = "succeeds" | "declined" | "insufficient_funds" | "succeeds_then_declines";

/** A card as the sandbox keeps it for a token or a kept card: what is shown of it, and what it does. */
export interface SandboxCard {
  card: CardSummary;
  behaviour: CardBehaviour;
}

export const insertConfirmationToken = (db: Knex, token: SandboxCard & { id: string; expires_at: Date }) => prepared(db("sandbox_confirmation_tokens").insert(token));

export const findSandboxPaymentMethod = (db: Knex, id: string) => db<SandboxCard & { id: string }>("sandbox_payment_methods").where({ id }).first();

/**
 * Uses up a live confirmation token for `idempotencyKey` in one statement, keeping its card as
 * `keptCardId` when it behaves as one of `keep`; the token's card and behaviour, or null when it is
 * unknown, expired, or used by another key. The key that used it takes it again.
 */
export async function takeConfirmationToken(db: Knex, idempotencyKey: string, tokenId: string, keptCardId: string, keep: CardBehaviour[]): Promise<SandboxCard | null> {
  const { rows } = await prepared(
    db.raw<{ rows: SandboxCard[] }>(
      `with taken as (
         update sandbox_confirmation_tokens set used_at = coalesce(used_at, now()), used_by = ?
         where id = ? and ((used_at is null and expires_at > now()) or used_by = ?)
         returning card, behaviour),
       kept as (
         insert into sandbox_payment_methods (id, card, behaviour)
         select ?, card, behaviour from taken where behaviour = any(?)
         on conflict (id) do nothing)
       select card, behaviour from taken`,
      [idempotencyKey, tokenId, idempotencyKey, keptCardId, keep],
    ),
  );
  return rows[0] ?? null;
}
