import type { AuthStack } from "./stack.js";

export interface MailboxEntry {
  id: string;
  to: string;
  subject: string;
  text: string;
  html: string;
  links: string[];
  sent_at: string | null;
}

/** The development mailbox as a developer (or the web app) reads it, through the gateway. */
export async function readMailbox(stack: AuthStack): Promise<MailboxEntry[]> {
  const response = await fetch(`${stack.gateway.url}/api/auth/dev/mailbox`);
  if (!response.ok) throw new Error(`the mailbox answered ${response.status}`);
  return (await response.json()) as MailboxEntry[];
}

/** The links in the newest mail to `to`, which must exist. */
export async function newestLinksTo(stack: AuthStack, to: string): Promise<string[]> {
  const mail = (await readMailbox(stack)).find((entry) => entry.to === to);
  if (!mail) throw new Error(`no mail to ${to} in the mailbox`);
  return mail.links;
}
