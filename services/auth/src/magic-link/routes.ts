import { defineEndpoint, type Endpoint } from "@tollgate/kit";
import type { Parts } from "../parts.js";
import { assertTrustedRedirect } from "../http/callback-url.js";
import { StatusAnswer } from "../http/schemas.js";
import { preferredLocale } from "../i18n/locales.js";
import { authUrl } from "../mail/links.js";
import { magicLinkMail } from "../mail/messages.js";
import { startSession } from "../sessions/issuance.js";
import { sessionJson } from "../sessions/output.js";
import { userJson } from "../users/output.js";
import { ownerOfProvenEmail } from "../users/proven-email.js";
import { findUserByEmail } from "../users/users.sql.js";
import { consumeVerification, createVerification } from "../verification/verifications.sql.js";
import { MagicLinkQuery, MagicLinkRecord, MagicLinkRequest, MagicLinkSignedIn } from "./schemas.js";

/** better-auth's magic link: 32 letters, alive for five minutes, good once. */
const TOKEN_LENGTH = 32;
const TOKEN_SECONDS = 300;

/** The callback URLs a request or link names, each checked as every callback is. */
function assertTrustedCallbacks(config: Parts["config"], urls: { callbackURL?: string; newUserCallbackURL?: string; errorCallbackURL?: string }): void {
  assertTrustedRedirect(config, urls.callbackURL);
  assertTrustedRedirect(config, urls.newUserCallbackURL, "INVALID_NEW_USER_CALLBACK_URL");
  assertTrustedRedirect(config, urls.errorCallbackURL, "INVALID_ERROR_CALLBACK_URL");
}

export function magicLinkEndpoints(auth: Parts): Endpoint[] {
  const { config, db } = auth;
  /** better-auth resolves the callbacks against its base URL, so a path lands on the site. */
  const absolute = (url: string) => new URL(url, authUrl(config, "")).href;

  return [
    defineEndpoint(
      "/sign-in/magic-link",
      {
        method: "POST",
        body: MagicLinkRequest,
        response: StatusAnswer,
        summary: "Mail a link that signs the address's owner in (signing up an address without an account)",
        tag: "Magic link",
      },
      async ({ body, req }) => {
        assertTrustedCallbacks(config, body);
        const email = body.email.toLowerCase();
        const user = await findUserByEmail(db, email);
        await auth.units.run(async (unit) => {
          const token = await createVerification(unit.db, "magic-link", JSON.stringify({ email, name: body.name }), TOKEN_SECONDS, TOKEN_LENGTH);
          const link = new URLSearchParams({ token, callbackURL: body.callbackURL || "/" });
          if (body.newUserCallbackURL) link.set("newUserCallbackURL", body.newUserCallbackURL);
          if (body.errorCallbackURL) link.set("errorCallbackURL", body.errorCallbackURL);
          const url = authUrl(config, `/magic-link/verify?${link.toString()}`);
          auth.mail.queue(unit, magicLinkMail({ email, locale: preferredLocale(user, req) }, url, TOKEN_SECONDS));
        });
        return { status: true };
      },
    ),

    defineEndpoint(
      "/magic-link/verify",
      {
        method: "GET",
        query: MagicLinkQuery,
        // With a callbackURL (every mailed link has one) the browser is sent there instead, or to the error callback with `error`.
        response: MagicLinkSignedIn,
        summary: "Follow a mailed magic link: sign in (or up) and go on to the callback",
        tag: "Magic link",
      },
      async ({ query, req, res }) => {
        assertTrustedCallbacks(config, query);
        const callbackURL = absolute(query.callbackURL || "/");
        const signedIn = await auth.units.run(async (unit) => {
          const stored = await consumeVerification(unit.db, "magic-link", query.token);
          const record = stored === null ? null : MagicLinkRecord.safeParse(JSON.parse(stored));
          if (!record?.success) return null;
          const { user, isNew } = await ownerOfProvenEmail(unit, record.data);
          const { session, token } = await startSession(auth, unit.db, res, user, { req, persistent: true });
          return { user, isNew, session, token };
        });
        if (!signedIn) {
          // Used, expired or never made: better-auth's answer for all three.
          const failed = new URL(absolute(query.errorCallbackURL || callbackURL));
          failed.searchParams.set("error", "INVALID_TOKEN");
          return res.redirect(302, failed.href);
        }
        if (!query.callbackURL) return { token: signedIn.token, user: userJson(signedIn.user), session: sessionJson(signedIn.session, signedIn.token) };
        return res.redirect(302, signedIn.isNew ? absolute(query.newUserCallbackURL || callbackURL) : callbackURL);
      },
    ),
  ];
}
