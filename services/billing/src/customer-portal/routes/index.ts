import type { Endpoint } from "@tollgate/kit";
import type { PortalDesk } from "../service.js";
import { portalBenefitGrantEndpoints } from "./benefit-grants.js";
import { portalCustomerEndpoints } from "./customer.js";
import { portalDownloadableEndpoints } from "./downloadables.js";
import { portalLicenseKeyEndpoints } from "./license-keys.js";
import { portalOrderEndpoints } from "./orders.js";
import { portalOrganizationEndpoints } from "./organization.js";
import { portalSubscriptionEndpoints } from "./subscriptions.js";

/**
 * The customer portal's API, one module per resource: for a customer session (`polar_cst_…`) the
 * customer's profile and cards, orders, subscriptions, benefit grants, license keys and files; and,
 * before anyone signs in, the seller's public page. Products come with their seller, as Polar's
 * portal shows them.
 */
export const customerPortalEndpoints = (desk: PortalDesk): Endpoint[] => [
  ...portalCustomerEndpoints(desk),
  ...portalOrderEndpoints(desk),
  ...portalSubscriptionEndpoints(desk),
  ...portalDownloadableEndpoints(desk),
  ...portalLicenseKeyEndpoints(desk),
  ...portalOrganizationEndpoints(desk),
  ...portalBenefitGrantEndpoints(desk),
];
