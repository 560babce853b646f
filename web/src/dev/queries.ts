import { queryOptions } from "@tanstack/react-query";
import { request } from "../api/client";

/** A mail Tollgate sent, as the development mailbox keeps it. */
export interface Mail {
  id: string;
  to: string;
  subject: string;
  text: string;
  links: string[];
  sent_at: string | null;
}

export const mailboxKeys = { all: ["mailbox"] as const };

/** Read again every few seconds, so that a mail just sent shows up without reloading. */
export const mailboxQuery = queryOptions({ queryKey: mailboxKeys.all, queryFn: () => request<Mail[]>("/api/auth/dev/mailbox"), refetchInterval: 5_000 });
