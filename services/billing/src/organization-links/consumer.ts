import { memberAdded, memberRemoved, organizationDeleted } from "@tollgate/proto";
import { on, type ConsumerDefinition } from "@tollgate/kit";
import { followMemberAdded, followMemberRemoved, followOrganizationDeleted } from "./service.js";

/**
 * Seats that follow a buyer's organization: a member who joins takes a free seat of every customer
 * linked to it, one who leaves releases theirs. The inbox applies each event once; the link's lock
 * and each member's newest event applied keep one organization's events in their order, even when
 * one is retried after a later one.
 */
export function linkedSeatsConsumer(): ConsumerDefinition {
  return {
    name: "billing-linked-seats",
    handlers: [
      on(memberAdded, (event, { unit }) => followMemberAdded(unit, event.data.organization_id, event.data.user_id, new Date(event.occurred_at))),
      on(memberRemoved, (event, { unit }) => followMemberRemoved(unit, event.data.organization_id, event.data.user_id, new Date(event.occurred_at))),
      on(organizationDeleted, (event, { unit }) => followOrganizationDeleted(unit, event.data.id)),
    ],
  };
}
