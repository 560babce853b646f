import { z } from "zod";
import { defineEndpoint, type Endpoint } from "@tollgate/kit";
import type { Parts } from "../parts.js";
import { CustomerSeat, CustomerSeatClaimResponse, SeatAssign, SeatClaim, SeatClaimInfo, SeatsList, SeatsQuery } from "./schemas.js";
import { assignSeat, claimInfo, claimSeat, namedPurchase, resendInvitation, revokeSeat, seatsListOf, sellersSeat } from "./service.js";

const TAG = "customer_seats";
const seatId = z.object({ id: z.string() });

/**
 * Seats of team customers' seat-based purchases (Polar's /v1/customer-seats): the seller assigns,
 * lists, revokes and mails them again; whoever got a seat's link reads it and claims it, without a token.
 */
export function customerSeatEndpoints(parts: Pick<Parts, "db" | "units" | "access" | "config">): Endpoint[] {
  const { db, access } = parts;
  return [
    defineEndpoint("/v1/customer-seats", { method: "POST", body: SeatAssign, response: CustomerSeat, summary: "Assign a seat", tag: TAG }, async ({ body, identity }) =>
      assignSeat(parts, { organizationIds: await access.organizationIds(identity, "customer_seats:write") }, body),
    ),
    defineEndpoint("/v1/customer-seats", { method: "GET", query: SeatsQuery, response: SeatsList, summary: "List a purchase's seats", tag: TAG }, async ({ query, identity }) =>
      seatsListOf(db, await namedPurchase(db, { organizationIds: await access.organizationIds(identity, "customer_seats:read") }, query)),
    ),
    defineEndpoint("/v1/customer-seats/:id", { method: "DELETE", params: seatId, response: CustomerSeat, summary: "Revoke a seat", tag: TAG }, async ({ params, identity }) =>
      revokeSeat(parts, await sellersSeat(db, await access.organizationIds(identity, "customer_seats:write"), params.id)),
    ),
    defineEndpoint("/v1/customer-seats/:id/resend", { method: "POST", params: seatId, response: CustomerSeat, summary: "Mail a seat's claim link again", tag: TAG }, async ({ params, identity }) =>
      resendInvitation(parts, await sellersSeat(db, await access.organizationIds(identity, "customer_seats:write"), params.id)),
    ),
    defineEndpoint("/v1/customer-seats/claim/:invitation_token", { method: "GET", params: z.object({ invitation_token: z.string() }), response: SeatClaimInfo, summary: "Read a claim link's seat", tag: TAG }, async ({ params }) =>
      claimInfo(db, params.invitation_token),
    ),
    defineEndpoint("/v1/customer-seats/claim", { method: "POST", body: SeatClaim, response: CustomerSeatClaimResponse, summary: "Claim a seat", tag: TAG }, async ({ body }) =>
      claimSeat(parts, body.invitation_token),
    ),
  ];
}
