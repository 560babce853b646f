import { defineEndpoint, HttpError, type Endpoint } from "@tollgate/kit";
import { userUpdated } from "@tollgate/proto";
import type { Parts } from "../parts.js";
import { authError } from "../http/errors.js";
import { StatusAnswer } from "../http/schemas.js";
import { requireSession } from "../sessions/current-session.js";
import { sessionCacheOf } from "../sessions/output.js";
import { ProfileChange, UsernameAvailability, UsernameQuestion } from "./schemas.js";
import { userEventData } from "./output.js";
import { assertUsernameAvailable, normalizeUsername, usernameProblem } from "./username.js";
import { findUserByUsername, updateUser, type UserChanges } from "./users.sql.js";

export function userEndpoints(auth: Parts): Endpoint[] {
  const { db } = auth;
  return [
    defineEndpoint(
      "/update-user",
      {
        method: "POST",
        response: StatusAnswer,
        summary: "Change the signed-in user's name, picture, username or language",
        tag: "Default",
        body: ProfileChange,
      },
      async ({ body, identity, req, res }) => {
        const current = await requireSession(auth, identity, req);
        if (body.email) throw authError(400, "EMAIL_CAN_NOT_BE_UPDATED");
        const changes: UserChanges = {};
        if (body.name !== undefined) changes.name = body.name;
        if (body.image !== undefined) changes.image = body.image;
        if (body.username !== undefined) {
          await assertUsernameAvailable(db, body.username, current.user.id);
          changes.username = normalizeUsername(body.username);
        }
        if (body.displayUsername !== undefined) changes.display_username = body.displayUsername;
        if (body.locale !== undefined) changes.locale = body.locale;
        if (Object.keys(changes).length === 0) throw new HttpError(400, "NO_FIELDS_TO_UPDATE", "No fields to update");
        const user = await auth.units.run(async (unit) => {
          const updated = await updateUser(unit.db, current.user.id, changes);
          if (updated) unit.announce(userUpdated, userEventData(updated));
          return updated;
        });
        // The cookie cache must not go on showing the old name for its remaining seconds.
        if (user && current.token) auth.cookies.issueCache(res, sessionCacheOf(current.session, current.token, user));
        return { status: true };
      },
    ),

    defineEndpoint(
      "/is-username-available",
      { method: "POST", body: UsernameQuestion, response: UsernameAvailability, summary: "Check whether a username is free to take", tag: "Username" },
      async ({ body }) => {
        if (!body.username) throw authError(422, "INVALID_USERNAME");
        const problem = usernameProblem(body.username);
        if (problem) throw authError(422, problem);
        return { available: !(await findUserByUsername(db, normalizeUsername(body.username))) };
      },
    ),
  ];
}
