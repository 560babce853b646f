import type { OrganizationRow } from "./organizations.sql.js";

/** An organization as better-auth's organization plugin returns it. */
export const organizationJson = (organization: OrganizationRow) => ({
  id: organization.id,
  name: organization.name,
  slug: organization.slug,
  logo: organization.logo,
  metadata: organization.metadata,
  requireTwoFactor: organization.require_two_factor,
  createdAt: organization.created_at,
});

/** What organization events carry. */
export const organizationEventData = (organization: OrganizationRow) => ({
  id: organization.id,
  name: organization.name,
  slug: organization.slug,
  require_two_factor: organization.require_two_factor,
});
