import { z } from "zod";
import { defineEndpoint, HttpError, StartupError, type Endpoint } from "@tollgate/kit";
import type { Parts } from "../parts.js";
import type { AuthConfig } from "../config.js";
import { isAdminUser } from "../admin/permissions.js";
import { requireSession } from "../sessions/current-session.js";
import { linksIn } from "./links.js";
import { latestMails } from "./mails.sql.js";
import { MailboxMail } from "./schemas.js";

/** Whether the site is only reachable from this machine: localhost names, 127.0.0.0/8 or ::1. */
export function isLoopbackUrl(url: string): boolean {
  const host = new URL(url).hostname.toLowerCase();
  return host === "localhost" || host.endsWith(".localhost") || /^127(\.\d{1,3}){3}$/.test(host) || host === "[::1]";
}

/** Why DEV_MAILBOX cannot be honoured, or null when it may be served. */
function mailboxRefusal(config: Pick<AuthConfig, "NODE_ENV" | "PUBLIC_URL">): string | null {
  if (config.NODE_ENV === "production") return "DEV_MAILBOX=true is refused in production: the mailbox shows links that open accounts";
  if (!isLoopbackUrl(config.PUBLIC_URL)) {
    return `DEV_MAILBOX=true is refused while PUBLIC_URL (${config.PUBLIC_URL}) is not on this machine: the mailbox shows links that open accounts`;
  }
  return null;
}

/**
 * The development mailbox: what was sent, newest first, with the links in it. Those links reset
 * passwords, so it exists only when asked for (DEV_MAILBOX) on a site nobody else can reach, and only
 * platform admins may read it; a setting that cannot be honoured stops the service at start.
 */
export function mailboxEndpoints(auth: Parts): Endpoint[] {
  if (!auth.config.DEV_MAILBOX) return [];
  const refusal = mailboxRefusal(auth.config);
  if (refusal) throw new StartupError(refusal);
  return [
    defineEndpoint(
      "/dev/mailbox",
      { method: "GET", response: z.array(MailboxMail), summary: "The latest mails sent, newest first (development only, platform admins only)", tag: "Development" },
      async ({ identity, req }) => {
        const { user } = await requireSession(auth, identity, req);
        if (!isAdminUser(auth.config, user)) throw new HttpError(403, "FORBIDDEN", "Only platform admins may read the development mailbox");
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
      },
    ),
  ];
}
