import type { Endpoint } from "@tollgate/kit";
import type { Parts } from "../../parts.js";
import { portalBenefitGrantEndpoints } from "./benefit-grants.js";
import { portalCustomerEndpoints } from "./customer.js";
import { portalDownloadableEndpoints } from "./downloadables.js";
import { portalLicenseKeyEndpoints } from "./license-keys.js";
import { portalMemberEndpoints } from "./members.js";
import { portalOrderEndpoints } from "./orders.js";
import { portalOrganizationEndpoints } from "./organization.js";
import { portalOrganizationLinkEndpoints } from "./organization-link.js";
import { portalSeatEndpoints } from "./seats.js";
import { portalSessionEndpoints } from "./customer-session.js";
import { portalSubscriptionEndpoints } from "./subscriptions.js";

/**
 * The customer portal's API, one module per resource: for a customer session (`polar_cst_…`) the
 * customer's profile and cards, orders, subscriptions, benefit grants, license keys, files, team members and seats; and,
 * before anyone signs in, the seller's public page and sign-in by a code sent by e-mail. Products come with their seller, as Polar's
 * portal shows them.
 */
export const customerPortalEndpoints = (parts: Pick<Parts, "db" | "units" | "config" | "processor" | "storage" | "logger"> & { wakeRenewals: () => void; renewNow: (subscriptionId: string) => Promise<void> }): Endpoint[] => [
  ...portalSessionEndpoints(parts),
  ...portalCustomerEndpoints(parts),
  ...portalOrderEndpoints(parts),
  ...portalSubscriptionEndpoints(parts),
  ...portalDownloadableEndpoints(parts),
  ...portalLicenseKeyEndpoints(parts),
  ...portalOrganizationEndpoints(parts),
  ...portalOrganizationLinkEndpoints(parts),
  ...portalBenefitGrantEndpoints(parts),
  ...portalMemberEndpoints(parts),
  ...portalSeatEndpoints(parts),
];
