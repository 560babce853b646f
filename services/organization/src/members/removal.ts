import { clearActiveOrganization, memberRemoved } from "@tollgate/proto";
import { orgError } from "../http/errors.js";
import type { Parts } from "../parts.js";
import { removeFromOrganizationTeams } from "../teams/teams.sql.js";
import { memberEventData } from "./output.js";
import { deleteMember, type MemberRow } from "./members.sql.js";
import { keepingAnOwner } from "./owners.js";

/**
 * Ends a membership with its team memberships, announces it, and takes the organization off the
 * user's sessions wherever it was the active one; never the last owner's.
 */
export async function removeMember(org: Parts, member: MemberRow): Promise<void> {
  await keepingAnOwner(org, member.organization_id, "YOU_CANNOT_LEAVE_THE_ORGANIZATION_AS_THE_ONLY_OWNER", async (unit) => {
    await removeFromOrganizationTeams(unit.db, member.organization_id, member.user_id);
    // Of two removals of the same member at once, only one removes (and announces) it.
    if ((await deleteMember(unit.db, member.id)) === 0) throw orgError(400, "MEMBER_NOT_FOUND");
    unit.announce(memberRemoved, memberEventData(member));
  });
  await org.request(clearActiveOrganization, { user_id: member.user_id, organization_id: member.organization_id });
}
