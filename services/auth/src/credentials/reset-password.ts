import { defineEndpoint, type Endpoint } from "@tollgate/kit";
import type { Parts } from "../parts.js";
import { assertTrustedRedirect } from "../http/callback-url.js";
import { authError } from "../http/errors.js";
import { StatusAnswer } from "../http/schemas.js";
import { authUrl } from "../mail/links.js";
import { preferredLocale } from "../i18n/locales.js";
import { accountLinkMail } from "../mail/messages.js";
import { revokeSessions } from "../sessions/issuance.js";
import { findUserByEmail, findUserById } from "../users/users.sql.js";
import { consumeVerification, createVerification, peekVerification } from "../verification/verifications.sql.js";
import { findCredentialAccount, insertCredentialAccount, setAccountPassword } from "./credentials.sql.js";
import { assertPasswordLength } from "./password-policy.js";
import { PasswordReset, PasswordResetQuery, ResetLinkParams, ResetLinkQuery, ResetRequest, ResetRequested } from "./schemas.js";

const RESET_TOKEN_LENGTH = 24;
const RESET_TOKEN_SECONDS = 3600;
const SAME_ANSWER = { status: true, message: "If this email exists in our system, check your email for the reset link" };

export function resetPasswordEndpoints(auth: Parts): Endpoint[] {
  const { config, db, passwords } = auth;

  /** better-auth's redirect from a reset link: the callback resolved against the auth base URL (its error page without one). */
  const resetRedirect = (callbackURL: string, parameters: Record<string, string>) => {
    const url = callbackURL ? new URL(callbackURL, authUrl(config, "/")) : new URL(authUrl(config, "/error"));
    for (const [name, value] of Object.entries(parameters)) url.searchParams.set(name, value);
    return url.href;
  };

  const requestReset = (path: string, summary: string) =>
    defineEndpoint(path, { method: "POST", body: ResetRequest, response: ResetRequested, summary, tag: "Default" }, async ({ body, req }) => {
      assertTrustedRedirect(config, body.redirectTo, "INVALID_REDIRECT_URL");
      const user = await findUserByEmail(db, body.email.toLowerCase());
      // The same answer either way: the form must not reveal which addresses have accounts.
      if (!user) return SAME_ANSWER;
      await auth.units.run(async (unit) => {
        const token = await createVerification(unit.db, "reset-password", user.id, RESET_TOKEN_SECONDS, RESET_TOKEN_LENGTH);
        const url = authUrl(config, `/reset-password/${token}?callbackURL=${encodeURIComponent(body.redirectTo ?? "")}`);
        auth.mail.queue(unit, accountLinkMail("resetPassword", { email: user.email, locale: preferredLocale(user, req) }, url, RESET_TOKEN_SECONDS));
      });
      return SAME_ANSWER;
    });

  return [
    requestReset("/request-password-reset", "Mail a link that resets the password, if the address has an account"),
    // The path better-auth used before request-password-reset; older clients still call it.
    requestReset("/forget-password", "The former name of request-password-reset, kept for older clients"),

    defineEndpoint(
      "/reset-password/:token",
      {
        method: "GET",
        params: ResetLinkParams,
        query: ResetLinkQuery,
        status: 302,
        produces: "text/html",
        summary: "Follow an e-mailed reset link: on to the callback with the token, or with `error` when it is no good",
        tag: "Default",
      },
      async ({ params, query, res }) => {
        // Empty, as in a link asked for without redirectTo, is no callback: better-auth checks none.
        assertTrustedRedirect(config, query.callbackURL || undefined);
        const valid = query.callbackURL !== "" && (await peekVerification(db, "reset-password", params.token)) !== null;
        res.redirect(302, resetRedirect(query.callbackURL, valid ? { token: params.token } : { error: "INVALID_TOKEN" }));
      },
    ),

    defineEndpoint(
      "/reset-password",
      {
        method: "POST",
        body: PasswordReset,
        query: PasswordResetQuery,
        response: StatusAnswer,
        summary: "Set a new password with a reset token, ending every session of the user",
        tag: "Default",
      },
      async ({ body, query }) => {
        const token = body.token || query.token;
        if (!token) throw authError(400, "INVALID_TOKEN");
        assertPasswordLength(config, body.newPassword);
        const userId = await peekVerification(db, "reset-password", token);
        if (!userId) throw authError(400, "INVALID_TOKEN");
        const user = await findUserById(db, userId);
        if (!user) throw authError(400, "USER_NOT_FOUND");
        const hash = await passwords.hash(body.newPassword);
        await auth.units.run(async (unit) => {
          // Spent in the transaction that uses it: of two requests with one token, one sets a password.
          if (!(await consumeVerification(unit.db, "reset-password", token))) throw authError(400, "INVALID_TOKEN");
          const account = await findCredentialAccount(unit.db, user.id);
          if (account) await setAccountPassword(unit.db, account.id, hash);
          else await insertCredentialAccount(unit.db, user.id, hash);
          // Whoever knew the old password is signed out everywhere.
          await revokeSessions(unit, { userId: user.id });
        });
        return { status: true };
      },
    ),
  ];
}
