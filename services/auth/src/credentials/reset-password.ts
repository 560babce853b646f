import { z } from "zod";
import { defineEndpoint, type Endpoint } from "@tollgate/kit";
import type { Auth } from "../auth.js";
import { assertTrustedRedirect } from "../http/callback-url.js";
import { authError } from "../http/errors.js";
import { resetPasswordMail } from "../mail/messages.js";
import { revokeSessions } from "../sessions/lifecycle.js";
import { findUserByEmail, findUserById } from "../users/users.sql.js";
import { authUrl, withMail } from "../verification/send.js";
import { consumeVerification, createVerification, peekVerification } from "../verification/verifications.sql.js";
import { findCredentialAccount, insertCredentialAccount, setAccountPassword } from "./credentials.sql.js";
import { assertPasswordLength } from "./password-policy.js";

const RESET_TOKEN_LENGTH = 24;
const RESET_TOKEN_SECONDS = 3600;
const SAME_ANSWER = { status: true, message: "If this email exists in our system, check your email for the reset link" };

/** `base` with query parameters added, kept relative when it was a path. */
function withQuery(base: string, parameters: Record<string, string>): string {
  const url = new URL(base, "http://placeholder");
  for (const [name, value] of Object.entries(parameters)) url.searchParams.set(name, value);
  return base.startsWith("/") ? `${url.pathname}${url.search}` : url.toString();
}

export function resetPasswordEndpoints(auth: Auth): Endpoint[] {
  const { config, db, passwords } = auth;
  const requestReset = (path: string) =>
    defineEndpoint(path, { method: "POST", body: z.object({ email: z.email(), redirectTo: z.string().optional() }) }, async ({ body }) => {
      assertTrustedRedirect(config, body.redirectTo, "INVALID_REDIRECT_URL");
      const user = await findUserByEmail(db, body.email.toLowerCase());
      // The same answer either way: the form must not reveal which addresses have accounts.
      if (!user) return SAME_ANSWER;
      await withMail(auth, async (trx) => {
        const token = await createVerification(trx, "reset-password", user.id, RESET_TOKEN_SECONDS, RESET_TOKEN_LENGTH);
        const url = authUrl(auth, `/reset-password/${token}?callbackURL=${encodeURIComponent(body.redirectTo ?? "")}`);
        await auth.mail.queue(trx, resetPasswordMail(user.email, url));
      });
      return SAME_ANSWER;
    });

  return [
    requestReset("/request-password-reset"),
    // The path better-auth used before request-password-reset; older clients still call it.
    requestReset("/forget-password"),

    defineEndpoint(
      "/reset-password/:token",
      { method: "GET", params: z.object({ token: z.string() }), query: z.object({ callbackURL: z.string().optional() }) },
      async ({ params, query, res }) => {
        assertTrustedRedirect(config, query.callbackURL);
        const valid = query.callbackURL && (await peekVerification(db, "reset-password", params.token));
        if (!query.callbackURL) return res.redirect(302, withQuery("/api/auth/error", { error: "INVALID_TOKEN" }));
        res.redirect(302, withQuery(query.callbackURL, valid ? { token: params.token } : { error: "INVALID_TOKEN" }));
      },
    ),

    defineEndpoint(
      "/reset-password",
      {
        method: "POST",
        body: z.object({ newPassword: z.string(), token: z.string().optional() }),
        query: z.object({ token: z.string().optional() }),
      },
      async ({ body, query }) => {
        const token = body.token ?? query.token;
        if (!token) throw authError(400, "INVALID_TOKEN");
        assertPasswordLength(config, body.newPassword);
        const hash = await passwords.hash(body.newPassword);
        await db.transaction(async (trx) => {
          const userId = await consumeVerification(trx, "reset-password", token);
          const user = userId ? await findUserById(trx, userId) : undefined;
          if (!user) throw authError(400, "INVALID_TOKEN");
          const account = await findCredentialAccount(trx, user.id);
          if (account) await setAccountPassword(trx, account.id, hash);
          else await insertCredentialAccount(trx, user.id, hash);
          // Whoever knew the old password is signed out everywhere.
          await revokeSessions(auth, trx, { userId: user.id });
        });
        return { status: true };
      },
    ),
  ];
}
