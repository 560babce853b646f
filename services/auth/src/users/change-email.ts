import type { Response } from "express";
import { defineEndpoint, HttpError, type Endpoint, type UnitOfWork } from "@tollgate/kit";
import { userUpdated } from "@tollgate/proto";
import type { Parts } from "../parts.js";
import { assertTrustedRedirect } from "../http/callback-url.js";
import type { AuthErrorCode } from "../http/errors.js";
import { StatusAnswer } from "../http/schemas.js";
import { preferredLocale } from "../i18n/locales.js";
import { accountLinkMail } from "../mail/messages.js";
import { requireSession, type CurrentSession } from "../sessions/current-session.js";
import { sessionCacheOf } from "../sessions/output.js";
import { queueVerificationMail, verifyEmailUrl } from "../verification/send.js";
import { signVerificationToken, VERIFICATION_TTL_SECONDS, type VerificationClaims } from "../verification/tokens.js";
import { userEventData } from "./output.js";
import { findUserByEmail, findUserById, updateUser, type UserChanges, type UserRow } from "./users.sql.js";
import { EmailChange } from "./schemas.js";

/** Changes the user's address and announces it; the browser's cookie cache shows it at once. */
async function setEmail(
  auth: Parts,
  unit: UnitOfWork,
  current: CurrentSession | null,
  res: Response,
  userId: string,
  changes: UserChanges,
): Promise<UserRow | undefined> {
  const changed = await updateUser(unit.db, userId, changes);
  if (!changed) return undefined;
  unit.announce(userUpdated, userEventData(changed));
  if (current?.token && current.user.id === changed.id) auth.cookies.issueCache(res, sessionCacheOf(current.session, current.token, changed));
  return changed;
}

export function changeEmailEndpoints(auth: Parts): Endpoint[] {
  return [
    defineEndpoint(
      "/change-email",
      {
        method: "POST",
        body: EmailChange,
        response: StatusAnswer,
        summary: "Change the signed-in user's e-mail address (a verified one only once the new address is confirmed)",
        tag: "Default",
      },
      async ({ body, identity, req, res }) => {
        const current = await requireSession(auth, identity, req);
        const { user } = current;
        assertTrustedRedirect(auth.config, body.callbackURL);
        const newEmail = body.newEmail.toLowerCase();
        if (newEmail === user.email) throw new HttpError(400, "BAD_REQUEST", "Email is the same");
        // Taken by someone else: answer as if it worked, so the form cannot probe for accounts.
        if (await findUserByEmail(auth.db, newEmail)) return { status: true };

        if (user.email_verified) {
          // A verified address is given up only for one the user shows they receive mail at: the
          // change happens when the link mailed to the new address is followed (see verify-email).
          const token = signVerificationToken(auth.config.AUTH_SECRET, {
            email: user.email,
            updateTo: newEmail,
            requestType: "change-email-verification",
            userId: user.id,
          });
          await auth.units.run(
            (unit) => {
              auth.mail.queue(unit, accountLinkMail("changeEmail", { email: newEmail, locale: preferredLocale(user, req) }, verifyEmailUrl(auth, token, body.callbackURL), VERIFICATION_TTL_SECONDS));
              return Promise.resolve();
            },
            { transaction: false },
          );
          return { status: true };
        }
        // An address never verified protects nothing: it changes now, and the new one is verified next.
        await auth.units.run(async (unit) => {
          const changed = await setEmail(auth, unit, current, res, user.id, { email: newEmail });
          if (changed) queueVerificationMail(auth, unit, changed, preferredLocale(changed, req), body.callbackURL);
        });
        return { status: true };
      },
    ),
  ];
}

/**
 * Follows a change-of-address link: the user must still have the address the change was asked
 * from, and a browser signed in as someone else cannot complete it. Following the link proves the
 * new address, so it is verified.
 */
export async function completeEmailChange(
  auth: Parts,
  claims: VerificationClaims & { updateTo: string },
  current: CurrentSession | null,
  res: Response,
): Promise<UserRow | AuthErrorCode> {
  const user = await findUserById(auth.db, claims.userId);
  if (!user) return "USER_NOT_FOUND";
  if (user.email !== claims.email) return "INVALID_TOKEN";
  if (current && current.user.id !== user.id) return "INVALID_USER";
  if (await findUserByEmail(auth.db, claims.updateTo)) return "USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL";
  const changed = await auth.units.run((unit) => setEmail(auth, unit, current, res, user.id, { email: claims.updateTo, email_verified: true }));
  return changed ?? "USER_NOT_FOUND";
}
