import { linksIn } from "../../services/auth/src/mail/links.js";
import { latestMails } from "../../services/auth/src/mail/mails.sql.js";
import type { AuthStack } from "./auth.js";

export interface MailboxEntry {
  id: string;
  to: string;
  subject: string;
  text: string;
  links: string[];
  sent_at: Date | null;
}

/**
 * What the auth service has queued to send, newest first, read from its database: tests follow mailed
 * links without a mail server, and without the web mailbox, which only a platform admin may read.
 */
export async function readMailbox(stack: Pick<AuthStack, "auth">): Promise<MailboxEntry[]> {
  const mails = await latestMails(stack.auth.context.db, 100);
  return mails.map((mail) => ({ id: mail.id, to: mail.to_address, subject: mail.subject, text: mail.text, links: linksIn(mail.text), sent_at: mail.sent_at }));
}

/** The links in the newest mail to `to`, which must exist. */
export async function newestLinksTo(stack: Pick<AuthStack, "auth">, to: string): Promise<string[]> {
  const mail = (await readMailbox(stack)).find((entry) => entry.to === to);
  if (!mail) throw new Error(`no mail to ${to} in the mail queue`);
  return mail.links;
}
