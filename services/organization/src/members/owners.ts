import type { UnitOfWork } from "@tollgate/kit";
import { orgError, type OrgErrorCode } from "../http/errors.js";
import type { Parts } from "../parts.js";
import { lockOrganization } from "../organizations/organizations.sql.js";
import { ownersOf } from "./members.sql.js";

/**
 * Makes a change to an organization's members and refuses it, undone, if it takes away the last
 * owner: someone must always be able to manage the owners and delete the organization. The rule is
 * checked on the outcome, with the organization locked from before the change until it commits, so
 * two owners leaving, removing or demoting each other at once go one after the other and the second
 * finds itself the only owner; checked beforehand, each would have seen the other and let both through.
 */
export async function keepingAnOwner<T>(org: Parts, organizationId: string, refusal: OrgErrorCode, change: (unit: UnitOfWork) => Promise<T>): Promise<T> {
  return org.units.run(async (unit) => {
    if (!(await lockOrganization(unit.db, organizationId))) throw orgError(400, "ORGANIZATION_NOT_FOUND");
    // An organization that has no owner already (left so before this rule held) may still lose members.
    const hadOwner = (await ownersOf(unit.db, organizationId)).length > 0;
    const changed = await change(unit);
    if (hadOwner && (await ownersOf(unit.db, organizationId)).length === 0) throw orgError(400, refusal);
    return changed;
  });
}
