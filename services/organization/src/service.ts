import { Router } from "express";
import { authCookieName, betterAuthErrors, defineService, mountEndpoints, serveApiDescription } from "@tollgate/kit";
import { checkOrganizationPermission, createOrganizationForUser } from "@tollgate/proto";
import { organizationEnv } from "./config.js";
import { invitationEndpoints } from "./invitations/routes.js";
import { memberEndpoints } from "./members/routes.js";
import { userPermission } from "./members/service.js";
import { organizationMigrations } from "./migrations/index.js";
import type { Parts } from "./parts.js";
import { organizationEndpoints } from "./organizations/routes.js";
import { createOrganizationAsked } from "./organizations/service.js";
import { teamEndpoints } from "./teams/routes.js";
import { usersConsumer } from "./users/consumer.js";

/** Organizations, members, invitations and teams behind `/api/auth/organization` (better-auth's organization plugin). */
export const organizationService = defineService({
  name: "organization",
  schema: "organization",
  defaultPort: 3002,
  errors: betterAuthErrors,
  env: organizationEnv,
  migrations: organizationMigrations,
  setup: ({ config, db, units, logger, request, identity }): Parts => ({ config, db, units, logger, request, identity }),
  routes(router, context) {
    const org = context.app;
    const api = Router();
    const endpoints = [...organizationEndpoints(org), ...memberEndpoints(org), ...invitationEndpoints(org), ...teamEndpoints(org)];
    mountEndpoints(api, endpoints);
    serveApiDescription(
      router,
      {
        title: "Tollgate organization API",
        version: "1",
        description: "better-auth's organization plugin, with teams: works with better-auth's organizationClient pointed at this site.",
        basePath: "/api/auth",
        errors: betterAuthErrors,
        securitySchemes: {
          session_cookie: { type: "apiKey", in: "cookie", name: authCookieName("session_token", context.config.PUBLIC_URL), description: "The session cookie sign-in sets" },
        },
      },
      endpoints,
    );
    router.use("/api/auth", api);
  },
  consumers: () => [usersConsumer()],
  responders(context) {
    context.respond(createOrganizationForUser, (asked) => createOrganizationAsked(context.app, asked));
    context.respond(checkOrganizationPermission, (asked) => userPermission(context.app, asked));
  },
});
