import { getSessionContext, type IdentityClaims } from "@tollgate/proto";
import type { z } from "zod";
import { orgError } from "./http/errors.js";
import type { Parts } from "./parts.js";
import { upsertUser } from "./users/users.sql.js";

/** The caller's session, and whether it has two-factor authentication (from the gateway's identity claim). */
export type Caller = NonNullable<z.output<typeof getSessionContext.response>["session"]> & { two_factor: boolean };

/**
 * The signed-in caller with their session's active organization, from the auth service. The
 * caller's profile is refreshed in the users projection on the way, so member views always have it.
 */
export async function requireCaller(org: Parts, identity: IdentityClaims): Promise<Caller> {
  if (identity.kind !== "user") throw orgError(401, "UNAUTHORIZED");
  const { session } = await org.request(getSessionContext, { session_id: identity.session_id });
  if (!session) throw orgError(401, "UNAUTHORIZED");
  await upsertUser(org.db, session.user);
  return { ...session, two_factor: identity.two_factor === true };
}
