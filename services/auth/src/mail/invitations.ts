import { invitationCreated } from "@tollgate/proto";
import { on, type ConsumerDefinition } from "@tollgate/kit";
import type { Auth } from "../auth.js";
import { invitationMail } from "./messages.js";

/**
 * Organization invitations go out through auth's mail path, so they reach the same SMTP server or
 * development mailbox; the mail is queued in the consumer's transaction, once per invitation event.
 */
export function invitationMailConsumer(auth: Auth): ConsumerDefinition {
  return {
    name: "auth-invitation-mail",
    handlers: [
      on(invitationCreated, async (event, { trx }) => {
        const { email, inviter_name, inviter_email, organization_name, accept_url } = event.data;
        await auth.mail.queue(trx, invitationMail(email, inviter_name || inviter_email, organization_name, accept_url));
      }),
    ],
  };
}
