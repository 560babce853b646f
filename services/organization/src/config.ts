import { env, type ServiceConfig } from "@tollgate/kit";
import { z } from "zod";

export const organizationEnv = z.object({
  /** Where invitation links lead (the web app's accept page). */
  PUBLIC_URL: env.url(["http", "https"], "http://localhost:3000"),
  ALLOW_USER_TO_CREATE_ORGANIZATION: env.boolean(true),
  /** How many organizations one user may belong to when creating another; 0 means no limit. */
  ORGANIZATION_LIMIT: env.integer("a number of organizations (0 for no limit)", 0, 0),
  MEMBERSHIP_LIMIT: env.integer("a number of members", 100, 1),
  INVITATION_LIMIT: env.integer("a number of pending invitations", 100, 1),
  INVITATION_EXPIRES_IN_SECONDS: env.integer("a number of seconds", 48 * 3600, 60),
  /** Lets an organization lose its last team; better-auth refuses that by default. */
  ALLOW_REMOVING_ALL_TEAMS: env.boolean(false),
});

export type OrganizationEnv = typeof organizationEnv;
export type OrgConfig = ServiceConfig<OrganizationEnv>;
