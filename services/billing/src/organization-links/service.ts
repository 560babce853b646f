import { createHash } from "node:crypto";
import { HttpError, notFound, notPermitted, polarErrors, randomId, type Knex, type OrganizationAccess, type UnitOfWork, type Units } from "@tollgate/kit";
import type { IdentityClaims } from "@tollgate/proto";
import { findCustomer, type CustomerRow } from "../customers/service.js";
import { findSeller, sellerNames } from "../organizations/organizations.sql.js";
import { findPerson } from "../users/users.sql.js";
import { organizationLinkJson } from "./output.js";
import { releaseLinkedSeat, seatLinkedMember } from "./seating.js";
import {
  completeLink,
  deleteLink,
  findLink,
  findLinkByConsentToken,
  findLinkedMember,
  linkedMembersOf,
  lockLink,
  lockLinksOf,
  refusedMembersOf,
  replaceConsentToken,
  requestLink,
  saveLinkedMember,
  type OrganizationLinkRow,
} from "./organization-links.sql.js";

/** A member whose user billing has not heard of yet (auth's user.created is still on its way). */
class PersonNotYetKnown extends Error {
  constructor(userId: string) {
    super(`user ${userId} is not known to billing yet`);
  }
}

/** How long the consent page's link works: it is opened at once, from the portal. */
const CONSENT_MINUTES = 30;

const tokenHashOf = (token: string) => createHash("sha256").update(token).digest("hex");

const signedInUser = (identity: IdentityClaims): string => {
  if (identity.kind !== "user") throw new HttpError(401, polarErrors.codes.unauthorized, "Sign in to Tollgate to link an organization.");
  return identity.user_id;
};

/** The link as its readers see it, with the buyer's organization named and its members' seats. */
export async function linkView(db: Knex, link: OrganizationLinkRow) {
  const [organization] = link.linked_organization_id ? await sellerNames(db, [link.linked_organization_id]) : [];
  return organizationLinkJson(link, organization, await linkedMembersOf(db, link.customer_id));
}

/** The customer's link, or 404 when the seller never asked for one. */
export async function customerLink(db: Knex, customer: CustomerRow) {
  const link = await findLink(db, customer.id);
  if (!link) throw notFound("Organization link");
  return linkView(db, link);
}

/**
 * The seller asks that a team customer's seats follow one of the buyer's own organizations. Nothing
 * follows until an owner of that organization consents from the portal; asking again changes nothing.
 */
export async function askForLink(units: Units, customer: CustomerRow) {
  if (customer.type !== "team") throw notPermitted("Only a team customer's seats can follow an organization's members.");
  return units.run(async (unit) => linkView(unit.db, await requestLink(unit.db, { customer_id: customer.id, organization_id: customer.organization_id })));
}

/** The seller ends the link: the seats it handed out stay with their members, and follow nothing any more. */
export async function endLink(units: Units, customer: CustomerRow): Promise<void> {
  await units.run(async (unit) => {
    if (!(await lockLink(unit.db, customer.id))) throw notFound("Organization link");
    await deleteLink(unit.db, customer.id);
  });
}

/**
 * A link to the consent page for the customer's owner, who opens it signed in to Tollgate and picks
 * the organization. Only the token's digest is kept; a new one replaces any earlier.
 */
export async function issueConsent(db: Knex, customerId: string, publicUrl: string) {
  const link = await findLink(db, customerId);
  if (!link) throw notFound("Organization link");
  if (link.linked_organization_id) throw new HttpError(409, polarErrors.codes.bad_request, "The seats already follow an organization; ask the seller to end that link first.");
  const token = `tg_olc_${randomId(48)}`;
  const expiresAt = new Date(Date.now() + CONSENT_MINUTES * 60_000);
  await replaceConsentToken(db, customerId, tokenHashOf(token), expiresAt);
  return { url: `${publicUrl.replace(/\/$/, "")}/organization-links/${token}`, expires_at: expiresAt.toISOString() };
}

const invitationOf = async (db: Knex, token: string) => {
  const link = await findLinkByConsentToken(db, tokenHashOf(token));
  if (!link) throw notFound("Organization link invitation");
  return link;
};

/** What the consent page shows: who asks, for which customer, and the organizations the signed-in user owns. */
export async function consentInvitation({ db, access }: { db: Knex; access: OrganizationAccess }, identity: IdentityClaims, token: string) {
  const userId = signedInUser(identity);
  const link = await invitationOf(db, token);
  const [seller, customer, organizations] = await Promise.all([findSeller(db, link.organization_id), findCustomer(db, link.customer_id), access.ownedBy(userId).then((ids) => sellerNames(db, ids))]);
  if (!seller || !customer) throw notFound("Organization link invitation");
  return {
    seller: { name: seller.name, slug: seller.slug },
    customer: { name: customer.name, email: customer.email },
    status: link.linked_organization_id ? ("linked" as const) : ("awaiting_consent" as const),
    linked_organization_id: link.linked_organization_id,
    organizations: organizations.map(({ id, name, slug }) => ({ id, name, slug })),
  };
}

/**
 * An owner of the buyer's organization consents: the customer's seats follow its members from now
 * on, and everyone already in it is offered a seat at once (in a stable order, until none is left).
 */
export async function consentToLink({ units, access }: { units: Units; access: OrganizationAccess }, identity: IdentityClaims, token: string, organizationId: string) {
  const userId = signedInUser(identity);
  if (!(await access.ownedBy(userId)).includes(organizationId)) throw notPermitted("Only an owner of the organization can link it.");
  const members = await access.members(organizationId);
  return units.run(async (unit) => {
    const invited = await invitationOf(unit.db, token);
    const link = await lockLink(unit.db, invited.customer_id);
    const customer = link && (await findCustomer(unit.db, link.customer_id));
    if (!link || !customer || link.consent_token_hash !== invited.consent_token_hash) throw notFound("Organization link invitation");
    const linked = await completeLink(unit.db, link.customer_id, organizationId, userId);
    const now = new Date();
    for (const memberId of members) {
      // One who signed up a moment ago may not be known yet: they get their seat when they next join or someone leaves.
      await memberJoined(unit, customer, memberId, now).catch((error: unknown) => {
        if (!(error instanceof PersonNotYetKnown)) throw error;
      });
    }
    return linkView(unit.db, linked);
  });
}

/**
 * Offers a seat to someone who joined the linked organization, unless a newer membership event
 * already spoke for them. No seat left: they are recorded as refused with why, and get the next seat
 * freed by someone leaving.
 */
async function memberJoined(unit: UnitOfWork, customer: CustomerRow, userId: string, at: Date): Promise<void> {
  const known = await findLinkedMember(unit.db, customer.id, userId);
  if (known && known.changed_at > at) return;
  if (known?.status === "seated") return;
  const person = await findPerson(unit.db, userId);
  // Auth's user.created and this member.added travel apart: the consumer tries the event again shortly.
  if (!person) throw new PersonNotYetKnown(userId);
  const outcome = await seatLinkedMember(unit, customer, person.email);
  await saveLinkedMember(unit.db, {
    customer_id: customer.id,
    user_id: userId,
    email: person.email,
    seat_id: "seatId" in outcome ? outcome.seatId : null,
    status: "seatId" in outcome ? "seated" : "refused",
    reason: "refusal" in outcome ? outcome.refusal : null,
    changed_at: at,
  });
}

/** Releases the seat of someone who left the linked organization (their grants go with it), and offers it to whoever waits longest. */
async function memberLeft(unit: UnitOfWork, customer: CustomerRow, userId: string, at: Date): Promise<void> {
  const known = await findLinkedMember(unit.db, customer.id, userId);
  if (known && known.changed_at > at) return;
  if (known?.seat_id) await releaseLinkedSeat(unit, known.seat_id);
  await saveLinkedMember(unit.db, { customer_id: customer.id, user_id: userId, email: known?.email ?? null, seat_id: null, status: "left", reason: null, changed_at: at });
  if (!known?.seat_id) return;
  for (const waiting of await refusedMembersOf(unit.db, customer.id)) {
    await memberJoined(unit, customer, waiting.user_id, at);
    if ((await findLinkedMember(unit.db, customer.id, waiting.user_id))?.status === "seated") return;
  }
}

/** Each customer linked to the organization, locked: events of one organization apply one at a time, on every replica. */
async function eachLinkedCustomer(unit: UnitOfWork, organizationId: string, apply: (customer: CustomerRow) => Promise<void>): Promise<void> {
  for (const link of await lockLinksOf(unit.db, organizationId)) {
    const customer = await findCustomer(unit.db, link.customer_id);
    if (customer) await apply(customer);
  }
}

/** member.added from the organization service: a seat for the new member in every customer linked to it. */
export const followMemberAdded = (unit: UnitOfWork, organizationId: string, userId: string, at: Date) =>
  eachLinkedCustomer(unit, organizationId, (customer) => memberJoined(unit, customer, userId, at));

/** member.removed: their seats released. */
export const followMemberRemoved = (unit: UnitOfWork, organizationId: string, userId: string, at: Date) =>
  eachLinkedCustomer(unit, organizationId, (customer) => memberLeft(unit, customer, userId, at));

/** organization.deleted: every seat it handed out released, and the links ended. */
export const followOrganizationDeleted = (unit: UnitOfWork, organizationId: string) =>
  eachLinkedCustomer(unit, organizationId, async (customer) => {
    for (const member of await linkedMembersOf(unit.db, customer.id)) {
      if (member.seat_id) await releaseLinkedSeat(unit, member.seat_id);
    }
    await deleteLink(unit.db, customer.id);
  });
