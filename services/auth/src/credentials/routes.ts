import { z } from "zod";
import { defineEndpoint, isUniqueViolation, randomId, type Endpoint } from "@tollgate/kit";
import { userCreated } from "@tollgate/proto";
import type { Parts } from "../parts.js";
import { assertTrustedRedirect } from "../http/callback-url.js";
import { authError } from "../http/errors.js";
import { preferredLocale } from "../i18n/locales.js";
import { requireSession } from "../sessions/current-session.js";
import { revokeSessions, startSession } from "../sessions/issuance.js";
import { SignedIn } from "../sessions/schemas.js";
import { TwoFactorRedirect } from "../two-factor/schemas.js";
import { userEventData, userJson } from "../users/output.js";
import { assertUsernameAvailable, normalizeUsername, usernameProblem } from "../users/username.js";
import { findUserByEmail, findUserByUsername, insertUser, type UserRow } from "../users/users.sql.js";
import { findCredentialAccount, insertCredentialAccount, setAccountPassword } from "./credentials.sql.js";
import { queueVerificationMail } from "../verification/send.js";
import { assertPasswordLength } from "./password-policy.js";
import { EmailSignIn, PasswordChange, SignUp, TokenAndUser, UsernameSignIn } from "./schemas.js";
import { signInWithPassword } from "./sign-in.js";

/** What a new user would look like, without storing it. */
function unsavedUser(fields: Pick<UserRow, "id" | "name" | "email" | "image" | "username" | "display_username" | "locale">): UserRow {
  const now = new Date();
  return { ...fields, email_verified: false, two_factor_enabled: false, role: "user", banned: false, ban_reason: null, ban_expires: null, created_at: now, updated_at: now };
}

export function credentialEndpoints(auth: Parts): Endpoint[] {
  const { config, db, passwords } = auth;
  return [
    defineEndpoint(
      "/sign-up/email",
      {
        method: "POST",
        response: TokenAndUser,
        summary: "Sign up with an e-mail address and password (signed in at once unless the address must be verified first)",
        tag: "Default",
        body: SignUp,
      },
      async ({ body, req, res }) => {
        assertPasswordLength(config, body.password);
        assertTrustedRedirect(config, body.callbackURL);
        // A valid display name given alone doubles as the username, as better-auth's plugin does.
        const username = body.username ?? (body.displayUsername && !usernameProblem(body.displayUsername) ? body.displayUsername : undefined);
        if (username !== undefined) await assertUsernameAvailable(db, username);
        const email = body.email.toLowerCase();

        const fields = {
          id: randomId(32),
          name: body.name,
          email,
          image: body.image ?? null,
          username: username === undefined ? null : normalizeUsername(username),
          display_username: body.displayUsername ?? username ?? null,
          locale: body.locale ?? null,
        };

        if (await findUserByEmail(db, email)) {
          if (!config.REQUIRE_EMAIL_VERIFICATION) throw authError(422, "USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL");
          // With verification required, answer as for a new address so sign-up cannot probe accounts.
          await passwords.hash(body.password);
          return { token: null, user: userJson(unsavedUser(fields)) };
        }

        const hash = await passwords.hash(body.password);
        const signIn = !config.REQUIRE_EMAIL_VERIFICATION;
        try {
          return await auth.units.run(async (unit) => {
            const user = await insertUser(unit.db, fields);
            await insertCredentialAccount(unit.db, user.id, hash);
            unit.announce(userCreated, userEventData(user));
            // With verification required, the new user gets the mail instead of a session.
            if (!signIn) queueVerificationMail(auth, unit, user, preferredLocale(user, req), body.callbackURL);
            const session = signIn ? await startSession(auth, unit.db, res, user, { req, persistent: body.rememberMe !== false }) : null;
            return { token: session?.token ?? null, user: userJson(user) };
          });
        } catch (error) {
          // Two sign-ups for one address at once: the loser sees what it would have seen a moment later.
          if (isUniqueViolation(error)) throw authError(422, "USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL");
          throw error;
        }
      },
    ),

    defineEndpoint(
      "/sign-in/email",
      {
        method: "POST",
        body: EmailSignIn,
        response: z.union([SignedIn, TwoFactorRedirect]),
        summary: "Sign in with an e-mail address and password",
        tag: "Default",
      },
      async ({ body, req, res }) => {
        if (!z.email().safeParse(body.email).success) throw authError(400, "INVALID_EMAIL");
        assertPasswordLength(config, body.password, "max");
        assertTrustedRedirect(config, body.callbackURL);
        const user = await findUserByEmail(db, body.email.toLowerCase());
        return signInWithPassword(auth, user, body, { req, res }, "INVALID_EMAIL_OR_PASSWORD");
      },
    ),

    defineEndpoint(
      "/sign-in/username",
      {
        method: "POST",
        body: UsernameSignIn,
        response: z.union([SignedIn, TwoFactorRedirect]),
        summary: "Sign in with a username and password",
        tag: "Username",
      },
      async ({ body, req, res }) => {
        if (!body.username || !body.password) throw authError(401, "INVALID_USERNAME_OR_PASSWORD");
        const problem = usernameProblem(body.username);
        if (problem) throw authError(422, problem);
        assertPasswordLength(config, body.password, "max");
        assertTrustedRedirect(config, body.callbackURL);
        const user: UserRow | undefined = await findUserByUsername(db, normalizeUsername(body.username));
        return signInWithPassword(auth, user, body, { req, res }, "INVALID_USERNAME_OR_PASSWORD");
      },
    ),

    defineEndpoint(
      "/change-password",
      {
        method: "POST",
        body: PasswordChange,
        response: TokenAndUser,
        summary: "Change the signed-in user's password; with revokeOtherSessions, every other session ends",
        tag: "Default",
      },
      async ({ body, identity, req, res }) => {
        const current = await requireSession(auth, identity, req);
        assertPasswordLength(config, body.newPassword);
        assertPasswordLength(config, body.currentPassword, "max");
        const account = await findCredentialAccount(db, current.user.id);
        if (!account?.password) throw authError(400, "CREDENTIAL_ACCOUNT_NOT_FOUND");
        if (!(await passwords.verify(body.currentPassword, account.password))) throw authError(400, "INVALID_PASSWORD");
        const hash = await passwords.hash(body.newPassword);
        const token = await auth.units.run(async (unit) => {
          await setAccountPassword(unit.db, account.id, hash);
          if (!body.revokeOtherSessions) return null;
          // Every session ends, this one included; the caller continues in a new one.
          await revokeSessions(unit, { userId: current.user.id });
          return (await startSession(auth, unit.db, res, current.user, { req, persistent: current.session.persistent })).token;
        });
        return { token, user: userJson(current.user) };
      },
    ),
  ];
}
