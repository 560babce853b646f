import { webhookEndpointDisabled } from "@tollgate/proto";
import { on, type ConsumerDefinition } from "@tollgate/kit";
import type { Auth } from "../auth.js";
import type { UserRow } from "../users/users.sql.js";
import { webhookDisabledMail } from "./messages.js";

/** Tells an organization's owners and admins, by mail, that the webhook dispatcher turned off one of their endpoints. */
export function webhookAlertMailConsumer(auth: Auth): ConsumerDefinition {
  return {
    name: "auth-webhook-alert-mail",
    handlers: [
      on(webhookEndpointDisabled, async (event, { trx }) => {
        const { recipient_user_ids, url, failed_attempts, manage_url } = event.data;
        const recipients = await trx<UserRow>("users").whereIn("id", recipient_user_ids).select("email");
        for (const { email } of recipients) await auth.mail.queue(trx, webhookDisabledMail(email, url, failed_attempts, manage_url));
      }),
    ],
  };
}
