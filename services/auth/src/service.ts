import { betterAuthErrors, defineService } from "@tollgate/kit";

/** Users, accounts, sessions and e-mail flows behind `/api/auth` (better-auth's wire protocol). */
export const authService = defineService({
  name: "auth",
  schema: "auth",
  defaultPort: 3001,
  errors: betterAuthErrors,
  migrations: {},
});
