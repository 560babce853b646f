import { z } from "zod";
import { on, type ConsumerDefinition } from "@tollgate/kit";
import { billingEvents } from "@tollgate/proto";
import { revokeSeatsOfMember } from "./service.js";

/**
 * A member removed from a team gives back every seat they held or were invited to, as Polar's
 * revoke_seats_for_member does: their grants are revoked with the seats, in the consumer's
 * transaction, so member.deleted handled again revokes nothing twice.
 */
export function seatHoldersConsumer(): ConsumerDefinition {
  return {
    name: "billing-seat-holders",
    handlers: [
      on(billingEvents["member.deleted"], async ({ data }, { unit }) => {
        const { id } = z.object({ id: z.string() }).parse(data.payload);
        await revokeSeatsOfMember(unit, id);
      }),
    ],
  };
}
