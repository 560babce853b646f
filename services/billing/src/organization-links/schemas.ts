import { z } from "zod";
import { isoTimestamp } from "@tollgate/kit";

const OrganizationNamed = z.strictObject({ id: z.string(), name: z.string(), slug: z.string() });

/** A member of the linked organization as the customer's seats see them (Tollgate's own). */
export const LinkedOrganizationMember = z
  .strictObject({
    user_id: z.string(),
    email: z.string().nullable(),
    status: z.enum(["seated", "refused", "left"]).meta({ description: "seated: holds a seat; refused: none was free (see reason); left: left the organization, seat released" }),
    seat_id: z.string().nullable(),
    reason: z.string().nullable(),
    changed_at: isoTimestamp(),
  })
  .meta({ id: "LinkedOrganizationMember" });

/**
 * A team customer whose seats follow the members of one of the buyer's Tollgate organizations
 * (Tollgate's own: Polar has no such link). Asked for by the seller, consented to by an owner of the
 * buyer's organization from the customer portal.
 */
export const OrganizationLink = z
  .strictObject({
    customer_id: z.string(),
    status: z.enum(["awaiting_consent", "linked"]),
    organization: OrganizationNamed.nullable().meta({ description: "The buyer's organization, once linked" }),
    requested_at: isoTimestamp(),
    linked_at: isoTimestamp().nullable(),
    members: z.array(LinkedOrganizationMember),
  })
  .meta({ id: "OrganizationLink" });

/** Where the customer's owner goes to pick the organization, signed in to Tollgate. */
export const OrganizationLinkConsent = z
  .strictObject({ url: z.url(), expires_at: isoTimestamp() })
  .meta({ id: "OrganizationLinkConsent" });

/** What the consent page shows the signed-in user: who asks, and the organizations they may link. */
export const OrganizationLinkInvitation = z
  .strictObject({
    seller: z.strictObject({ name: z.string(), slug: z.string() }),
    customer: z.strictObject({ name: z.string().nullable(), email: z.string() }),
    status: z.enum(["awaiting_consent", "linked"]),
    linked_organization_id: z.string().nullable(),
    organizations: z.array(OrganizationNamed).meta({ description: "The organizations the signed-in user owns" }),
  })
  .meta({ id: "OrganizationLinkInvitation" });

export const OrganizationLinkAccept = z.strictObject({ organization_id: z.string().min(1) }).meta({ id: "OrganizationLinkAccept" });

export const ConsentTokenParams = z.object({ token: z.string().min(1) });
