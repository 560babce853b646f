import type { Knex } from "@tollgate/kit";
import type { IdentityClaims } from "@tollgate/proto";
import { customerLink, issueConsent } from "../organization-links/service.js";
import { seatManager } from "./team.js";

/** The team customer the caller manages (its owner or a billing manager): the link is theirs to see and consent to. */
const managedCustomer = (db: Knex, identity: IdentityClaims) => seatManager(db, identity);

/** The link the seller asked for, as the customer's owner sees it in the portal. */
export const portalOrganizationLink = async (db: Knex, identity: IdentityClaims) => customerLink(db, await managedCustomer(db, identity));

/** The customer's owner goes on to consent: a short-lived link to the page where, signed in to Tollgate, they pick the organization. */
export const portalOrganizationConsent = async (db: Knex, identity: IdentityClaims, publicUrl: string) => issueConsent(db, (await managedCustomer(db, identity)).id, publicUrl);
