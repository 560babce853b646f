import { type Migrations } from "@tollgate/kit";
import { organizations } from "./0001_organizations.js";

/** In the order they run: a new migration is a new file, added here last, and never changes once released. */
export const organizationMigrations: Migrations = {
  "0001_organizations": organizations,
};
