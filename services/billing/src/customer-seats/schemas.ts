import { z } from "zod";
import { isoTimestamp } from "@tollgate/kit";
import { Member } from "../members/schemas.js";

/** A seat's metadata, as Polar bounds it: at most 10 keys and 1 KB written as JSON. */
const seatMetadata = z
  .record(z.string(), z.unknown())
  .refine((metadata) => Object.keys(metadata).length <= 10, { error: "Metadata cannot have more than 10 keys" })
  .refine((metadata) => JSON.stringify(metadata).length <= 1024, { error: "Metadata size cannot exceed 1KB" });

/** Who a seat goes to, as Polar's SeatAssign names them. */
const recipient = {
  email: z.email().nullish(),
  external_customer_id: z.string().nullish(),
  customer_id: z.string().nullish(),
  external_member_id: z.string().nullish(),
  member_id: z.string().nullish(),
};

type Recipient = { [Key in keyof typeof recipient]?: string | null | undefined };

/**
 * Polar's rules for naming a seat's recipient: at least one name; a customer (by id or external id)
 * or a member (by id or external id), never both; a customer alone, or an e-mail alone; a member id
 * never with an e-mail (an external member id may come with one, which links or checks it).
 */
export function recipientProblem(body: Recipient): string | null {
  const given = (value: string | null | undefined) => value !== null && value !== undefined;
  const customers = [body.external_customer_id, body.customer_id].filter(given).length;
  const members = [body.external_member_id, body.member_id].filter(given).length;
  const email = given(body.email);
  if (customers + members + (email ? 1 : 0) === 0) return "At least one of email, external_customer_id, customer_id, external_member_id, or member_id must be provided";
  if (customers > 0 && members > 0) return "Cannot combine external_customer_id/customer_id with external_member_id/member_id";
  if (members > 1) return "Cannot provide both external_member_id and member_id";
  if (customers > 0 && customers + (email ? 1 : 0) !== 1) return "Exactly one of email, external_customer_id, or customer_id must be provided";
  if (given(body.member_id) && email) return "Cannot combine member_id with email";
  return null;
}

/** Polar's check on a request's whole body, reported as its model validators are. */
const wholeBody =
  <Body extends Recipient & { subscription_id?: string | null | undefined; order_id?: string | null | undefined; checkout_id?: string | null | undefined }>(sources: readonly ("subscription_id" | "order_id" | "checkout_id")[]) =>
  (body: Body, context: z.core.$RefinementCtx<Body>) => {
    if (sources.filter((source) => body[source] !== null && body[source] !== undefined).length !== 1) {
      context.addIssue({ code: "custom", path: [], message: `Exactly one of ${sources.length === 2 ? "subscription_id or order_id" : "subscription_id, order_id, or checkout_id"} must be provided`, input: body });
    }
    const problem = recipientProblem(body);
    if (problem) context.addIssue({ code: "custom", path: [], message: problem, input: body });
  };

const assignFields = {
  subscription_id: z.string().nullish(),
  order_id: z.string().nullish(),
  ...recipient,
  metadata: seatMetadata.nullish(),
  immediate_claim: z.boolean().default(false),
};

export const SeatAssign = z.object(assignFields).superRefine(wholeBody(["subscription_id", "order_id"])).meta({ id: "SeatAssign" });
export type SeatAssign = z.output<typeof SeatAssign>;

/** The portal's assignment: a checkout may stand for the subscription or order it made. */
export const CustomerSeatAssign = z
  .object({ ...assignFields, checkout_id: z.string().nullish() })
  .superRefine(wholeBody(["subscription_id", "order_id", "checkout_id"]))
  .meta({ id: "CustomerSeatAssign" });
export type CustomerSeatAssign = z.output<typeof CustomerSeatAssign>;

export const SeatsQuery = z.object({ subscription_id: z.string().nullish(), order_id: z.string().nullish() });

export const SeatClaim = z.object({ invitation_token: z.string() }).meta({ id: "SeatClaim" });

export const CustomerSeat = z
  .strictObject({
    created_at: isoTimestamp(),
    modified_at: isoTimestamp().nullable(),
    id: z.string(),
    subscription_id: z.string().nullable(),
    order_id: z.string().nullable(),
    status: z.enum(["pending", "claimed", "revoked"]),
    customer_id: z.string().nullable(),
    member_id: z.string().nullable(),
    member: Member.nullable(),
    email: z.string().nullable(),
    customer_email: z.string().nullable(),
    invitation_token_expires_at: isoTimestamp().nullable(),
    claimed_at: isoTimestamp().nullable(),
    revoked_at: isoTimestamp().nullable(),
    seat_metadata: z.record(z.string(), z.unknown()).nullable(),
  })
  .meta({ id: "CustomerSeat" });

export const SeatsList = z.strictObject({ seats: z.array(CustomerSeat), available_seats: z.int(), total_seats: z.int() }).meta({ id: "SeatsList" });

/** What a claim link shows before it is used: read only, so a mail scanner opening it changes nothing. */
export const SeatClaimInfo = z
  .strictObject({
    product_name: z.string(),
    product_id: z.string(),
    organization_name: z.string(),
    organization_slug: z.string(),
    customer_email: z.string(),
    can_claim: z.boolean(),
  })
  .meta({ id: "SeatClaimInfo" });

export const CustomerSeatClaimResponse = z.strictObject({ seat: CustomerSeat, customer_session_token: z.string() }).meta({ id: "CustomerSeatClaimResponse" });
