import { customerMailRequested, type CustomerMail } from "@tollgate/proto";
import type { UnitOfWork } from "@tollgate/kit";
import { findSeller, type SellerRow } from "../organizations/organizations.sql.js";

/** Who a customer mail goes to: their address, and the language billing knows them by. */
export interface MailRecipient {
  email: string;
  locale: string | null;
}

/** The seller's portal, where a customer signs in with a code (or arrives from a link with a session). */
export const portalUrlOf = (publicUrl: string, seller: Pick<SellerRow, "slug">) => `${publicUrl.replace(/\/$/, "")}/${encodeURIComponent(seller.slug)}/portal`;

/**
 * Asks the platform's mailer (the auth service) for a mail to a seller's customer, sent under the
 * seller's name and answered to the seller's public e-mail, once the unit commits.
 */
export function requestCustomerMail(unit: UnitOfWork, seller: Pick<SellerRow, "id" | "name" | "email">, to: MailRecipient, mail: CustomerMail): void {
  unit.announce(customerMailRequested, { organization_id: seller.id, seller_name: seller.name, reply_to: seller.email, to: to.email, locale: to.locale, mail });
}

/** Whether the seller sends mail of this kind (Polar's `customer_email_settings`: every switch is on until the seller turns it off). */
const sends = (seller: Pick<SellerRow, "customer_email_settings">, mailSwitch: string) => seller.customer_email_settings[mailSwitch] !== false;

/** Asks for `mail` to the seller's customer in `unit`, unless the seller turned off mail of its kind. */
export async function mailCustomer(unit: UnitOfWork, publicUrl: string, organizationId: string, mailSwitch: string, to: MailRecipient, mail: (portalUrl: string) => CustomerMail): Promise<void> {
  const seller = await findSeller(unit.db, organizationId);
  if (!seller || !sends(seller, mailSwitch)) return;
  requestCustomerMail(unit, seller, to, mail(portalUrlOf(publicUrl, seller)));
}

export type SubscriptionNotice = Extract<CustomerMail, { kind: "subscription_notice" }>["notice"];

/** The seller's switch (Polar's `customer_email_settings`) each subscription notice follows. */
export const SWITCH_OF_NOTICE: Record<SubscriptionNotice, string> = {
  canceled: "subscription_cancellation",
  uncanceled: "subscription_uncanceled",
  revoked: "subscription_revoked",
  past_due: "subscription_past_due",
  retry_failed: "subscription_past_due",
  plan_changed: "subscription_updated",
  trial_ending: "subscription_trial_conversion_reminder",
  renewal_upcoming: "subscription_renewal_reminder",
  paused: "subscription_paused",
  resumed: "subscription_resumed",
};
