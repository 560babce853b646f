import { Router } from "express";
import { betterAuthErrors, defineService, mountEndpoints } from "@tollgate/kit";
import { resolveSession } from "@tollgate/proto";
import type { Auth } from "./auth.js";
import { authEnv } from "./config.js";
import { PasswordHasher } from "./credentials/passwords.js";
import { credentialEndpoints } from "./credentials/routes.js";
import { authMigrations } from "./migrations/index.js";
import { pageEndpoints } from "./pages/routes.js";
import { resolveSessionByTokenHash } from "./sessions/resolve.js";
import { sessionEndpoints } from "./sessions/routes.js";
import { SessionCookies } from "./sessions/session-cookie.js";
import { userEndpoints } from "./users/routes.js";

/** Users, accounts, sessions and e-mail flows behind `/api/auth` (better-auth's wire protocol). */
export const authService = defineService({
  name: "auth",
  schema: "auth",
  defaultPort: 3001,
  errors: betterAuthErrors,
  env: authEnv,
  migrations: authMigrations,
  routes(router, { config, db, outbox, logger }) {
    const auth: Auth = {
      config,
      db,
      outbox,
      logger,
      passwords: new PasswordHasher(config.BCRYPT_COST),
      cookies: new SessionCookies(config.AUTH_SECRET, config.PUBLIC_URL, config.SESSION_EXPIRES_IN_SECONDS),
    };
    const api = Router();
    mountEndpoints(api, [...credentialEndpoints(auth), ...sessionEndpoints(auth), ...userEndpoints(auth), ...pageEndpoints()]);
    router.use("/api/auth", api);
  },
  responders({ db, respond }) {
    respond(resolveSession, ({ token_hash }) => resolveSessionByTokenHash(db, token_hash));
  },
});
