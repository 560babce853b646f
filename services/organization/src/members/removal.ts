import { clearActiveOrganization, memberRemoved } from "@tollgate/proto";
import type { Org } from "../org.js";
import { removeFromOrganizationTeams } from "../teams/teams.sql.js";
import { memberEventData } from "./output.js";
import { deleteMember, type MemberRow } from "./members.sql.js";

/**
 * Ends a membership with its team memberships, announces it, and takes the organization off the
 * user's sessions wherever it was the active one.
 */
export async function removeMember(org: Org, member: MemberRow): Promise<void> {
  await org.db.transaction(async (trx) => {
    await removeFromOrganizationTeams(trx, member.organization_id, member.user_id);
    await deleteMember(trx, member.id);
    await org.outbox.emit(trx, memberRemoved, memberEventData(member));
  });
  await org.request(clearActiveOrganization, { user_id: member.user_id, organization_id: member.organization_id });
}
