import { betterAuthErrors, defineService } from "@tollgate/kit";

/** Organizations, members, invitations and teams behind `/api/auth/organization`. */
export const organizationService = defineService({
  name: "organization",
  schema: "organization",
  defaultPort: 3002,
  errors: betterAuthErrors,
  migrations: {},
});
