import type { IdentityClaims } from "@tollgate/proto";
import type { OrganizationAccess, Scope } from "../access/organization-access.js";
import { notFound } from "./errors.js";

/**
 * A resource the caller may act on with `scope`; anything else (missing, another organization's,
 * deleted) is the same 404, so ids of other sellers' resources reveal nothing.
 */
export async function reachable<Row extends { organization_id: string }>(
  access: OrganizationAccess,
  identity: IdentityClaims,
  scope: Scope,
  row: Row | undefined,
  what: string,
): Promise<Row> {
  if (!row || !(await access.allows(identity, scope, row.organization_id))) throw notFound(what);
  return row;
}
