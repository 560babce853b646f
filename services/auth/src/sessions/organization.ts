import type { z } from "zod";
import { sessionChanged, type getSessionContext } from "@tollgate/proto";
import type { Parts } from "../parts.js";
import { findUserById } from "../users/users.sql.js";
import { clearActiveOrganizationOf, findSessionById, setActiveOrganizationOf } from "./sessions.sql.js";

/** The caller's session as the organization service needs it, or null once it has ended. */
export async function sessionContext(auth: Parts, sessionId: string): Promise<z.input<typeof getSessionContext.response>> {
  const session = await findSessionById(auth.db, sessionId);
  if (!session || session.expires_at <= new Date()) return { session: null };
  const user = await findUserById(auth.db, session.user_id);
  if (!user) return { session: null };
  return {
    session: {
      id: session.id,
      user_id: session.user_id,
      active_organization_id: session.active_organization_id,
      active_team_id: session.active_team_id,
      user: { id: user.id, email: user.email, name: user.name, image: user.image, email_verified: user.email_verified },
    },
  };
}

export async function setActive(auth: Parts, sessionId: string, organizationId: string | null, teamId: string | null | undefined): Promise<{ status: true }> {
  await setActiveOrganizationOf(auth.db, sessionId, organizationId, teamId);
  return { status: true };
}

/**
 * Clears an organization (or just one of its teams) from a user's sessions after they leave; their
 * other devices see it once the gateway's cache drops them on session.changed.
 */
export function clearActive(auth: Parts, userId: string, organizationId: string, teamId?: string): Promise<{ cleared: number }> {
  return auth.units.run(async (unit) => {
    const cleared = await clearActiveOrganizationOf(unit.db, userId, organizationId, teamId);
    if (cleared > 0) unit.announce(sessionChanged, { user_id: userId });
    return { cleared };
  });
}
