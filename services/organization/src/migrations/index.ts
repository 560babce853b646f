import { type Migrations } from "@tollgate/kit";
import { organizations } from "./0001_organizations.js";
import { requireTwoFactor } from "./0002_require_two_factor.js";

/** In the order they run: a new migration is a new file, added here last, and never changes once released. */
export const organizationMigrations: Migrations = {
  "0001_organizations": organizations,
  "0002_require_two_factor": requireTwoFactor,
};
