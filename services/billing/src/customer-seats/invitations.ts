import { createHash } from "node:crypto";
import { randomId, type UnitOfWork } from "@tollgate/kit";
import type { CustomerRow } from "../customers/customers.sql.js";
import { portalUrlOf, requestCustomerMail } from "../customers/mail.js";
import type { SellerRow } from "../organizations/organizations.sql.js";

/** How long a claim link works: a day, as Polar's. */
export const INVITATION_LIFETIME_HOURS = 24;

/** The digest kept of an invitation token: the token itself goes out once, in the claim link. */
export const invitationDigest = (token: string) => createHash("sha256").update(token).digest("hex");

/** A new invitation: its token (for the link), the digest kept, and when it stops working by the seller's clock. */
export function newInvitation(now: Date): { token: string; hash: string; expiresAt: Date } {
  const token = randomId(43);
  return { token, hash: invitationDigest(token), expiresAt: new Date(now.getTime() + INVITATION_LIFETIME_HOURS * 3_600_000) };
}

/** The page of the seller's portal that claims a seat, as Polar's link: `/{slug}/portal/claim?token=…`. */
export const claimUrlOf = (publicUrl: string, seller: Pick<SellerRow, "slug">, token: string) => `${portalUrlOf(publicUrl, seller)}/claim?token=${encodeURIComponent(token)}`;

/**
 * Mails the claim link to whoever the seat is for, through the platform's mailer under the seller's
 * name, once the unit commits. Polar always sends it: no seller switch turns it off.
 */
export function mailInvitation(unit: UnitOfWork, publicUrl: string, invited: { email: string; seller: SellerRow; buyer: CustomerRow; product: string; token: string }): void {
  const { seller, buyer } = invited;
  requestCustomerMail(unit, seller, { email: invited.email, locale: buyer.locale }, {
    kind: "seat_invitation",
    product: invited.product,
    billing_manager: buyer.email,
    claim_url: claimUrlOf(publicUrl, seller, invited.token),
    valid_hours: INVITATION_LIFETIME_HOURS,
  });
}
