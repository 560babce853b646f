import { meetsTwoFactorRequirement } from "@tollgate/kit";
import type { Caller } from "./caller.js";
import { orgError, type OrgErrorCode } from "./http/errors.js";
import { findMember, type MemberRow } from "./members/members.sql.js";
import { requiresTwoFactor } from "./organizations/organizations.sql.js";
import type { Parts } from "./parts.js";
import { hasPermission } from "./roles/permissions.js";

/** The organization a request is about: the one named, else the session's active one. */
export function organizationIdFor(caller: Caller, given: string | undefined, missing: OrgErrorCode = "NO_ACTIVE_ORGANIZATION"): string {
  const organizationId = given ?? caller.active_organization_id;
  if (!organizationId) throw orgError(400, missing);
  return organizationId;
}

/**
 * Refuses a caller whose session lacks the two-factor authentication the organization requires.
 * Only leaving it, listing one's organizations and reading its name (to see why) skip this.
 */
export async function requireTwoFactorIfAsked({ db }: Pick<Parts, "db">, organizationId: string, caller: Caller): Promise<void> {
  if (!meetsTwoFactorRequirement(await requiresTwoFactor(db, organizationId), caller.two_factor)) throw orgError(403, "TWO_FACTOR_REQUIRED");
}

/** The caller's membership in the organization, if any: a member who does not meet its two-factor requirement is refused. */
export async function findCallerMember(org: Pick<Parts, "db">, organizationId: string, caller: Caller): Promise<MemberRow | undefined> {
  const member = await findMember(org.db, organizationId, caller.user_id);
  if (member) await requireTwoFactorIfAsked(org, organizationId, caller);
  return member;
}

/** The caller's membership in the organization; refused with `missing` when there is none. */
export async function requireMembership(org: Parts, organizationId: string, caller: Caller, missing: OrgErrorCode = "MEMBER_NOT_FOUND"): Promise<MemberRow> {
  const member = await findCallerMember(org, organizationId, caller);
  if (!member) throw orgError(400, missing);
  return member;
}

/** The caller's membership, allowed to do `wanted`; else 403 with the plugin's code. */
export async function requirePermission(
  org: Parts,
  organizationId: string,
  caller: Caller,
  wanted: Parameters<typeof hasPermission>[1],
  refusal: OrgErrorCode,
  missing?: OrgErrorCode,
): Promise<MemberRow> {
  const member = await requireMembership(org, organizationId, caller, missing);
  if (!hasPermission(member.role, wanted)) throw orgError(403, refusal);
  return member;
}
