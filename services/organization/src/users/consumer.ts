import { memberRemoved, memberUpdated, organizationDeleted, userCreated, userDeleted, userUpdated } from "@tollgate/proto";
import { on, type ConsumerDefinition, type Knex, type Outbox } from "@tollgate/kit";
import { memberEventData } from "../members/output.js";
import { deleteMember, updateMemberRole, type MemberRow } from "../members/members.sql.js";
import { deleteOrganization, lockOrganization } from "../organizations/organizations.sql.js";
import { isOwner, roleList, roleText } from "../roles/permissions.js";
import { removeFromOrganizationTeams } from "../teams/teams.sql.js";
import { upsertUser, type UserRow } from "./users.sql.js";

/**
 * When a user goes, so do their memberships, and no organization is left without an owner: the
 * longest-standing remaining member becomes one, and an organization with nobody left is deleted.
 */
async function removeUser(trx: Knex.Transaction, outbox: Outbox, userId: string): Promise<void> {
  // Organizations are locked in one order, so two users going at once never wait for each other in a circle.
  const memberships = await trx<MemberRow>("members").where({ user_id: userId }).orderBy("organization_id");
  for (const membership of memberships) {
    // Owners leaving the organization meanwhile wait, and then see that this owner has gone too.
    await lockOrganization(trx, membership.organization_id);
    await removeFromOrganizationTeams(trx, membership.organization_id, userId);
    await deleteMember(trx, membership.id);
    await outbox.emit(trx, memberRemoved, memberEventData(membership));
    const remaining = await trx<MemberRow>("members").where({ organization_id: membership.organization_id }).orderBy("created_at").orderBy("id");
    const [eldest] = remaining;
    if (!eldest) {
      await deleteOrganization(trx, membership.organization_id);
      await outbox.emit(trx, organizationDeleted, { id: membership.organization_id });
    } else if (!remaining.some((member) => isOwner(member.role))) {
      const promoted = await updateMemberRole(trx, eldest.id, roleText([...roleList(eldest.role), "owner"]));
      if (promoted) await outbox.emit(trx, memberUpdated, memberEventData(promoted));
    }
  }
  await trx<UserRow>("users").where({ id: userId }).delete();
}

/** Keeps the users projection (names, e-mails, images for member views) in step with auth. */
export function usersConsumer(outbox: Outbox): ConsumerDefinition {
  return {
    name: "organization-users",
    handlers: [
      on(userCreated, async (event, { trx }) => {
        await upsertUser(trx, { id: event.data.id, email: event.data.email, name: event.data.name, image: null });
      }),
      on(userUpdated, async (event, { trx }) => {
        await trx<UserRow>("users")
          .insert({ id: event.data.id, email: event.data.email, name: event.data.name, image: null })
          .onConflict("id")
          .merge(["email", "name"]);
      }),
      on(userDeleted, (event, { trx }) => removeUser(trx, outbox, event.data.id)),
    ],
  };
}
