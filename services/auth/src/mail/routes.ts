import { defineEndpoint, type Endpoint } from "@tollgate/kit";
import type { Auth } from "../auth.js";
import { latestMails } from "./mails.sql.js";

/** What was sent, newest first, with the links in it: for developers, never in production. */
export function mailboxEndpoints(auth: Auth): Endpoint[] {
  if (auth.config.NODE_ENV === "production") return [];
  return [
    defineEndpoint("/dev/mailbox", { method: "GET" }, async () => {
      const mails = await latestMails(auth.db, 100);
      return mails.map((mail) => ({
        id: mail.id,
        to: mail.to_address,
        subject: mail.subject,
        text: mail.text,
        html: mail.html,
        links: mail.text.match(/https?:\/\/\S+/g) ?? [],
        sentAt: mail.sent_at,
        createdAt: mail.created_at,
      }));
    }),
  ];
}
