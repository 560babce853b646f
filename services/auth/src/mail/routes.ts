import { defineEndpoint, type Endpoint } from "@tollgate/kit";
import type { Auth } from "../auth.js";
import { linksIn } from "./links.js";
import { latestMails } from "./mails.sql.js";

/**
 * The development mailbox: what was sent, newest first, with the links in it. Only when mail goes
 * nowhere else and never in production, since the links it shows open accounts.
 */
export function mailboxEndpoints(auth: Auth): Endpoint[] {
  if (auth.config.NODE_ENV === "production" || auth.config.SMTP_URL) return [];
  return [
    defineEndpoint("/dev/mailbox", { method: "GET" }, async () => {
      const mails = await latestMails(auth.db, 100);
      return mails.map((mail) => ({
        id: mail.id,
        to: mail.to_address,
        subject: mail.subject,
        text: mail.text,
        html: mail.html,
        links: linksIn(mail.text),
        sent_at: mail.sent_at,
      }));
    }),
  ];
}
