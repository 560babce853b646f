import type { Response } from "express";
import { defineEndpoint, type Endpoint, type UnitOfWork } from "@tollgate/kit";
import { userDeleted } from "@tollgate/proto";
import { endDisallowedImpersonations } from "../admin/impersonation.js";
import type { AdminSettings } from "../admin/permissions.js";
import type { Parts } from "../parts.js";
import { findCredentialAccount } from "../credentials/credentials.sql.js";
import { assertPasswordLength } from "../credentials/password-policy.js";
import { assertTrustedRedirect } from "../http/callback-url.js";
import { authError } from "../http/errors.js";
import { authUrl } from "../mail/links.js";
import { preferredLocale } from "../i18n/locales.js";
import { accountLinkMail } from "../mail/messages.js";
import { findCurrentSession, requireSession, type CurrentSession } from "../sessions/current-session.js";
import { consumeVerification, createVerification } from "../verification/verifications.sql.js";
import { DeletionConfirmation, DeletionRequest, UserDeletion } from "./schemas.js";
import { deleteUser } from "./users.sql.js";
import { deleteUserApiKeys } from "../api-keys/api-keys.sql.js";

const DELETE_TOKEN_LENGTH = 32;
const DELETE_TOKEN_SECONDS = 24 * 3600;
const DELETED = { success: true, message: "User deleted" };

/**
 * Deletes a user and announces it. Their sessions, accounts and API keys go with them; so do the
 * impersonations they began as an admin, which are other users' sessions.
 */
export async function removeUser(config: AdminSettings, unit: UnitOfWork, userId: string): Promise<void> {
  await deleteUserApiKeys(unit.db, userId);
  await deleteUser(unit.db, userId);
  unit.announce(userDeleted, { id: userId });
  await endDisallowedImpersonations(config, unit, userId);
}

/** Deletes the user and signs the browser out. */
async function deleteCurrentUser(auth: Parts, current: CurrentSession, res: Response, token?: string): Promise<void> {
  await auth.units.run(async (unit) => {
    if (token !== undefined && (await consumeVerification(unit.db, "delete-account", token)) !== current.user.id) throw authError(404, "INVALID_TOKEN");
    await removeUser(auth.config, unit, current.user.id);
  });
  auth.cookies.clear(res);
}

export function deleteUserEndpoints(auth: Parts): Endpoint[] {
  const { config, db, passwords } = auth;
  return [
    defineEndpoint(
      "/delete-user",
      {
        method: "POST",
        body: DeletionRequest,
        response: UserDeletion,
        summary: "Delete the signed-in user, or mail the link that does when deletion must be confirmed",
        tag: "Default",
      },
      async ({ body, identity, req, res }) => {
        const current = await requireSession(auth, identity, req);
        assertTrustedRedirect(config, body.callbackURL);
        // As in better-auth, an empty password counts as none: then the session must be fresh.
        if (body.password) {
          assertPasswordLength(config, body.password, "max");
          const account = await findCredentialAccount(db, current.user.id);
          if (!account?.password) throw authError(400, "CREDENTIAL_ACCOUNT_NOT_FOUND");
          if (!(await passwords.verify(body.password, account.password))) throw authError(400, "INVALID_PASSWORD");
        }
        if (body.token) {
          await deleteCurrentUser(auth, current, res, body.token);
          return DELETED;
        }
        if (config.DELETE_USER_EMAIL_CONFIRMATION) {
          await auth.units.run(async (unit) => {
            const token = await createVerification(unit.db, "delete-account", current.user.id, DELETE_TOKEN_SECONDS, DELETE_TOKEN_LENGTH);
            const url = authUrl(config, `/delete-user/callback?token=${token}&callbackURL=${encodeURIComponent(body.callbackURL || "/")}`);
            auth.mail.queue(unit, accountLinkMail("deleteAccount", { email: current.user.email, locale: preferredLocale(current.user, req) }, url, DELETE_TOKEN_SECONDS));
          });
          return { success: true, message: "Verification email sent" };
        }
        // Without the password, only a recently signed-in session may delete the account. better-auth
        // answers 400 SESSION_EXPIRED here, not requireFreshSession's 403 SESSION_NOT_FRESH.
        const freshAgeMs = config.SESSION_FRESH_AGE_SECONDS * 1000;
        if (!body.password && freshAgeMs > 0 && Date.now() - current.session.created_at.getTime() >= freshAgeMs) {
          throw authError(400, "SESSION_EXPIRED");
        }
        await deleteCurrentUser(auth, current, res);
        return DELETED;
      },
    ),

    defineEndpoint(
      "/delete-user/callback",
      {
        method: "GET",
        query: DeletionConfirmation,
        // With a callbackURL the browser is sent there instead.
        response: UserDeletion,
        summary: "Follow the e-mailed link that confirms deleting the signed-in user",
        tag: "Default",
      },
      async ({ query, identity, req, res }) => {
        assertTrustedRedirect(config, query.callbackURL);
        const current = await findCurrentSession(auth, identity, req);
        if (!current) throw authError(404, "FAILED_TO_GET_USER_INFO");
        await deleteCurrentUser(auth, current, res, query.token);
        if (query.callbackURL) return res.redirect(302, query.callbackURL);
        return DELETED;
      },
    ),
  ];
}
