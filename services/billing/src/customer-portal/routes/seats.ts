import { z } from "zod";
import { defineEndpoint, type Endpoint } from "@tollgate/kit";
import { CustomerSeat, CustomerSeatAssign, SeatsList, SeatsQuery } from "../../customer-seats/schemas.js";
import type { Parts } from "../../parts.js";
import { ClaimedSubscriptionListQuery, CustomerSubscriptionList } from "../schemas.js";
import { assignPortalSeat, claimedSubscriptionPage, portalSeats, resendPortalSeat, revokePortalSeat } from "../seats.js";

const TAG = "customer_portal";
const byId = z.object({ id: z.string() });

/** The team's seats in the portal (Polar's /v1/customer-portal/seats): the team sees them, its owners and billing managers give and take them back; a member lists the subscriptions they hold a seat of. */
export function portalSeatEndpoints(parts: Pick<Parts, "db" | "units" | "config">): Endpoint[] {
  return [
    defineEndpoint("/v1/customer-portal/seats/subscriptions", { method: "GET", query: ClaimedSubscriptionListQuery, response: CustomerSubscriptionList, summary: "List the subscriptions the member holds a seat of", tag: TAG }, async ({ query, identity }) =>
      claimedSubscriptionPage(parts, identity, query),
    ),
    defineEndpoint("/v1/customer-portal/seats", { method: "GET", query: SeatsQuery, response: SeatsList, summary: "List the seats of one of the team's purchases", tag: TAG }, async ({ query, identity }) =>
      portalSeats(parts.db, identity, query),
    ),
    defineEndpoint("/v1/customer-portal/seats", { method: "POST", body: CustomerSeatAssign, response: CustomerSeat, summary: "Give one of the team's seats", tag: TAG }, async ({ body, identity }) =>
      assignPortalSeat(parts, identity, body),
    ),
    defineEndpoint("/v1/customer-portal/seats/:id", { method: "DELETE", params: byId, response: CustomerSeat, summary: "Take one of the team's seats back", tag: TAG }, async ({ params, identity }) =>
      revokePortalSeat(parts, identity, params.id),
    ),
    defineEndpoint("/v1/customer-portal/seats/:id/resend", { method: "POST", params: byId, response: CustomerSeat, summary: "Mail a seat's claim link again", tag: TAG }, async ({ params, identity }) =>
      resendPortalSeat(parts, identity, params.id),
    ),
  ];
}
