import { customerMailRequested, invitationCreated, webhookEndpointDisabled } from "@tollgate/proto";
import { on, type ConsumerDefinition } from "@tollgate/kit";
import { acceptedLocale, DEFAULT_LOCALE } from "../i18n/locales.js";
import { findUserByEmail, findUserById, recipientsOf } from "../users/users.sql.js";
import { customerMail } from "./customer-mails.js";
import { insertMail } from "./mails.sql.js";
import { invitationMail, webhookDisabledMail } from "./messages.js";

// Mail other services ask for by event goes out through auth's mail path, so it reaches the same SMTP
// server or development mailbox. It is queued in the consumer's transaction, once per event, and the
// mail worker's next poll sends it.

/**
 * Organization invitations, in the invitee's language if they already have an account, else in the
 * inviter's: who invites a stranger most likely shares a language with them.
 */
export function invitationMailConsumer(): ConsumerDefinition {
  return {
    name: "auth-invitation-mail",
    handlers: [
      on(invitationCreated, async (event, { trx }) => {
        const { email, inviter_id, inviter_name, inviter_email, organization_name, accept_url, expires_at } = event.data;
        const invitee = await findUserByEmail(trx, email.toLowerCase());
        const locale = invitee?.locale ?? (await findUserById(trx, inviter_id))?.locale ?? DEFAULT_LOCALE;
        const invitation = { inviter: inviter_name || inviter_email, organization: organization_name, url: accept_url, expiresAt: new Date(expires_at) };
        await insertMail(trx, invitationMail({ email, locale }, invitation));
      }),
    ],
  };
}

/** Tells an organization's owners and admins, each in their language, that the webhook dispatcher turned off one of their endpoints. */
export function webhookAlertMailConsumer(): ConsumerDefinition {
  return {
    name: "auth-webhook-alert-mail",
    handlers: [
      on(webhookEndpointDisabled, async (event, { trx }) => {
        const { recipient_user_ids, url, failed_attempts, manage_url } = event.data;
        const endpoint = { url, failedAttempts: failed_attempts, manageUrl: manage_url };
        for (const { email, locale } of await recipientsOf(trx, recipient_user_ids)) {
          await insertMail(trx, webhookDisabledMail({ email, locale: locale ?? DEFAULT_LOCALE }, endpoint));
        }
      }),
    ],
  };
}

/**
 * Mail billing sends a seller's customers (a portal code, a receipt), in the language billing knows
 * the customer by (a tag such as "de-AT" counts as German; none, or one the product lacks, is English).
 */
export function customerMailConsumer(): ConsumerDefinition {
  return {
    name: "auth-customer-mail",
    handlers: [
      on(customerMailRequested, async (event, { trx }) => {
        const { to, locale, seller_name, reply_to, mail } = event.data;
        await insertMail(trx, customerMail({ email: to, locale: acceptedLocale(locale ?? undefined) }, { name: seller_name, replyTo: reply_to }, mail));
      }),
    ],
  };
}
