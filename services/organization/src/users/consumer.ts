import { memberRemoved, memberUpdated, organizationDeleted, userCreated, userDeleted, userUpdated } from "@tollgate/proto";
import { on, type ConsumerDefinition, type UnitOfWork } from "@tollgate/kit";
import { memberEventData } from "../members/output.js";
import { deleteMember, membersByAge, membershipsOfUser, updateMemberRole } from "../members/members.sql.js";
import { deleteOrganization, lockOrganization } from "../organizations/organizations.sql.js";
import { isOwner, roleList, roleText } from "../roles/permissions.js";
import { removeFromOrganizationTeams } from "../teams/teams.sql.js";
import { deleteUser, mergeUserProfile, upsertUser } from "./users.sql.js";

/**
 * When a user goes, so do their memberships, and no organization is left without an owner: the
 * longest-standing remaining member becomes one, and an organization with nobody left is deleted.
 */
async function removeUser(unit: UnitOfWork, userId: string): Promise<void> {
  // Organizations are locked in one order, so two users going at once never wait for each other in a circle.
  for (const membership of await membershipsOfUser(unit.db, userId)) {
    // Owners leaving the organization meanwhile wait, and then see that this owner has gone too.
    await lockOrganization(unit.db, membership.organization_id);
    await removeFromOrganizationTeams(unit.db, membership.organization_id, userId);
    await deleteMember(unit.db, membership.id);
    unit.announce(memberRemoved, memberEventData(membership));
    const remaining = await membersByAge(unit.db, membership.organization_id);
    const [eldest] = remaining;
    if (!eldest) {
      await deleteOrganization(unit.db, membership.organization_id);
      unit.announce(organizationDeleted, { id: membership.organization_id });
    } else if (!remaining.some((member) => isOwner(member.role))) {
      const promoted = await updateMemberRole(unit.db, eldest.id, roleText([...roleList(eldest.role), "owner"]));
      if (promoted) unit.announce(memberUpdated, memberEventData(promoted));
    }
  }
  await deleteUser(unit.db, userId);
}

/** Keeps the users projection (names, e-mails, images for member views) in step with auth. */
export function usersConsumer(): ConsumerDefinition {
  return {
    name: "organization-users",
    handlers: [
      on(userCreated, async (event, { trx }) => {
        await upsertUser(trx, { id: event.data.id, email: event.data.email, name: event.data.name, image: null });
      }),
      on(userUpdated, async (event, { trx }) => {
        await mergeUserProfile(trx, { id: event.data.id, email: event.data.email, name: event.data.name });
      }),
      on(userDeleted, (event, { unit }) => removeUser(unit, event.data.id)),
    ],
  };
}
