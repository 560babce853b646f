import { pageJson, type Knex } from "@tollgate/kit";
import type { IdentityClaims } from "@tollgate/proto";
import type { z } from "zod";
import { customerOf, mine } from "../customer-sessions/service.js";
import { assignSeat, claimedSubscriptionIdsOf, customersSeat, namedPurchase, resendInvitation, revokeSeat, seatsListOf } from "../customer-seats/service.js";
import type { CustomerSeatAssign, SeatsQuery } from "../customer-seats/schemas.js";
import type { Parts } from "../parts.js";
import { shownSubscriptions } from "../subscriptions/service.js";
import { findSubscription } from "../subscriptions/subscriptions.sql.js";
import { customerSubscriptionJson } from "./output.js";
import { portalOrganization } from "./service.js";
import { billingManagerOf, sessionMember } from "./team.js";

/** The seats of one of the customer's purchases, as any of the team may see them. */
export async function portalSeats(db: Knex, identity: IdentityClaims, query: z.output<typeof SeatsQuery>) {
  return seatsListOf(db, await namedPurchase(db, { customerId: customerOf(identity).customer_id }, query));
}

/** An owner or billing manager of the team gives one of its seats (Polar lets no other member). */
export const assignPortalSeat = async (parts: Pick<Parts, "db" | "units" | "config">, identity: IdentityClaims, body: z.output<typeof CustomerSeatAssign>) =>
  assignSeat(parts, { customerId: (await billingManagerOf(parts.db, identity)).customer_id }, body);

/** One of the team's seats, for an owner or billing manager to act on. */
async function teamSeat(db: Knex, identity: IdentityClaims, id: string) {
  return mine(await customersSeat(db, (await billingManagerOf(db, identity)).customer_id, id), "Seat");
}

export const revokePortalSeat = async (parts: Pick<Parts, "db" | "units">, identity: IdentityClaims, id: string) => revokeSeat(parts, await teamSeat(parts.db, identity, id));

export const resendPortalSeat = async (parts: Pick<Parts, "db" | "units" | "config">, identity: IdentityClaims, id: string) => resendInvitation(parts, await teamSeat(parts.db, identity, id));

/** The subscriptions the signed-in member holds a claimed seat of (a customer signed in as a whole holds none). */
export async function claimedSubscriptionPage({ db, config }: Pick<Parts, "db" | "config">, identity: IdentityClaims, page: { page: number; limit: number }) {
  const member = await sessionMember(db, identity);
  const ids = member ? await claimedSubscriptionIdsOf(db, member.id) : [];
  const shown = ids.slice((page.page - 1) * page.limit, page.page * page.limit);
  const rows = (await Promise.all(shown.map((id) => findSubscription(db, id)))).flatMap((row) => (row ? [row] : []));
  const organization = await portalOrganization(db, customerOf(identity).organization_id);
  return pageJson((await shownSubscriptions(db, rows, config.PUBLIC_URL)).map((subscription) => customerSubscriptionJson(subscription, organization)), ids.length, page.limit);
}
