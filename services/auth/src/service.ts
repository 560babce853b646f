import express, { Router } from "express";
import { authCookieName, betterAuthErrors, defineService, mountEndpoints, SecretVault, serveApiDescription, type ServiceContext } from "@tollgate/kit";
import { API_KEY_HEADER, clearActiveOrganization, getSessionContext, resolveApiKey, resolveSession, setActiveOrganization, setPassword } from "@tollgate/proto";
import { accountEndpoints } from "./accounts/routes.js";
import { apiKeyEndpoints } from "./api-keys/routes.js";
import { useApiKey } from "./api-keys/usage.js";
import { adminEndpoints } from "./admin/routes/index.js";
import type { Parts } from "./parts.js";
import { resetPasswordEndpoints } from "./credentials/reset-password.js";
import { setFirstPassword } from "./credentials/set-password.js";
import { emailOtpEndpoints } from "./email-otp/routes.js";
import { magicLinkEndpoints } from "./magic-link/routes.js";
import { customerMailConsumer, invitationMailConsumer, webhookAlertMailConsumer } from "./mail/consumer.js";
import { MailQueue } from "./mail/mail-queue.js";
import { mailboxEndpoints } from "./mail/routes.js";
import { changeEmailEndpoints } from "./users/change-email.js";
import { deleteUserEndpoints } from "./users/delete-user.js";
import { verificationEndpoints } from "./verification/routes.js";
import { authEnv, type AuthConfig } from "./config.js";
import { PasswordHasher } from "./credentials/passwords.js";
import { credentialEndpoints } from "./credentials/routes.js";
import { authMigrations } from "./migrations/index.js";
import { pageEndpoints } from "./pages/routes.js";
import { passkeyEndpoints } from "./passkeys/routes.js";
import { clearActive, sessionContext, setActive } from "./sessions/organization.js";
import { resolveSessionByTokenHash } from "./sessions/resolve.js";
import { sessionEndpoints } from "./sessions/routes.js";
import { SessionCookies } from "./sessions/session-cookie.js";
import { userEndpoints } from "./users/routes.js";
import { socialEndpoints } from "./social/routes.js";
import { configuredProviders } from "./social/settings.js";
import { providerTokenEndpoints } from "./social/tokens.js";
import { twoFactorEndpoints } from "./two-factor/routes.js";

/** The service's parts, built once when it starts and shared by its routes, workers, consumers and responders. */
function partsOf(context: ServiceContext<AuthConfig>): Parts {
  const { config, db, units, logger, identity, request } = context;
  return {
    config,
    db,
    units,
    logger,
    request,
    identity,
    passwords: new PasswordHasher(config.BCRYPT_COST),
    cookies: new SessionCookies(
      config.AUTH_SECRET,
      config.PUBLIC_URL,
      config.SESSION_EXPIRES_IN_SECONDS,
      config.SESSION_COOKIE_CACHE ? config.SESSION_COOKIE_CACHE_MAX_AGE_SECONDS : null,
    ),
    mail: new MailQueue({ db, logger, failures: context.failures, config }),
    providers: new Map(configuredProviders(config).map((provider) => [provider.definition.id, provider])),
    vault: SecretVault.fromSettings(config.TOKEN_ENCRYPTION_KEYS, { secret: config.AUTH_SECRET, purpose: "provider-tokens", derivedKeyId: "auth-secret" }),
    twoFactorVault: SecretVault.fromSettings(config.TOKEN_ENCRYPTION_KEYS, { secret: config.AUTH_SECRET, purpose: "two-factor", derivedKeyId: "auth-secret-2fa" }),
  };
}

/** Users, accounts, sessions and e-mail flows behind `/api/auth` (better-auth's wire protocol). */
export const authService = defineService({
  name: "auth",
  schema: "auth",
  defaultPort: 3001,
  errors: betterAuthErrors,
  env: authEnv,
  migrations: authMigrations,
  setup: partsOf,
  routes(router, context) {
    const auth = context.app;
    const api = Router();
    // Apple posts its sign-in answer as a form.
    api.use("/callback", express.urlencoded({ extended: false, limit: context.config.BODY_LIMIT }));
    const endpoints = [
      ...credentialEndpoints(auth),
      ...sessionEndpoints(auth),
      ...userEndpoints(auth),
      ...accountEndpoints(auth),
      ...verificationEndpoints(auth),
      ...resetPasswordEndpoints(auth),
      ...magicLinkEndpoints(auth),
      ...emailOtpEndpoints(auth),
      ...changeEmailEndpoints(auth),
      ...deleteUserEndpoints(auth),
      ...mailboxEndpoints(auth),
      ...adminEndpoints(auth),
      ...socialEndpoints(auth),
      ...providerTokenEndpoints(auth),
      ...twoFactorEndpoints(auth),
      ...pageEndpoints(auth),
      ...passkeyEndpoints(auth),
      ...apiKeyEndpoints(auth),
    ];
    mountEndpoints(api, endpoints);
    serveApiDescription(
      router,
      {
        title: "Tollgate auth API",
        version: "1",
        description: "better-auth's API (core, username and admin, and the plugins Tollgate speaks): works with better-auth's client pointed at this site.",
        basePath: "/api/auth",
        errors: betterAuthErrors,
        securitySchemes: {
          session_cookie: { type: "apiKey", in: "cookie", name: authCookieName("session_token", context.config.PUBLIC_URL), description: "The session cookie sign-in sets" },
          api_key: { type: "apiKey", in: "header", name: API_KEY_HEADER, description: "A user's API key acts as its user; an organization's acts for its organization" },
        },
      },
      endpoints,
    );
    router.use("/api/auth", api);
  },
  workers: (context) => [context.app.mail],
  consumers: () => [invitationMailConsumer(), webhookAlertMailConsumer(), customerMailConsumer()],
  responders(context) {
    const auth = context.app;
    context.respond(resolveSession, ({ token_hash }) => resolveSessionByTokenHash(auth, token_hash));
    context.respond(setPassword, ({ identity, new_password }) => setFirstPassword(auth, identity, new_password));
    context.respond(getSessionContext, ({ session_id }) => sessionContext(auth, session_id));
    context.respond(setActiveOrganization, ({ session_id, organization_id, team_id }) => setActive(auth, session_id, organization_id, team_id));
    context.respond(resolveApiKey, ({ key_hash }) => useApiKey(auth, key_hash));
    context.respond(clearActiveOrganization, ({ user_id, organization_id, team_id }) => clearActive(auth, user_id, organization_id, team_id));
  },
});
