import { invitationCreated, webhookEndpointDisabled } from "@tollgate/proto";
import { on, type ConsumerDefinition } from "@tollgate/kit";
import { emailsOf } from "../users/users.sql.js";
import { insertMail } from "./mails.sql.js";
import { invitationMail, webhookDisabledMail } from "./messages.js";

// Mail other services ask for by event goes out through auth's mail path, so it reaches the same SMTP
// server or development mailbox. It is queued in the consumer's transaction, once per event, and the
// mail worker's next poll sends it.

/** Organization invitations. */
export function invitationMailConsumer(): ConsumerDefinition {
  return {
    name: "auth-invitation-mail",
    handlers: [
      on(invitationCreated, async (event, { trx }) => {
        const { email, inviter_name, inviter_email, organization_name, accept_url } = event.data;
        await insertMail(trx, invitationMail(email, inviter_name || inviter_email, organization_name, accept_url));
      }),
    ],
  };
}

/** Tells an organization's owners and admins that the webhook dispatcher turned off one of their endpoints. */
export function webhookAlertMailConsumer(): ConsumerDefinition {
  return {
    name: "auth-webhook-alert-mail",
    handlers: [
      on(webhookEndpointDisabled, async (event, { trx }) => {
        const { recipient_user_ids, url, failed_attempts, manage_url } = event.data;
        for (const { email } of await emailsOf(trx, recipient_user_ids)) await insertMail(trx, webhookDisabledMail(email, url, failed_attempts, manage_url));
      }),
    ],
  };
}
