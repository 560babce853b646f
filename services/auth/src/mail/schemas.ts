import { z } from "zod";
import { isoTimestamp } from "@tollgate/kit";

/** A mail as the development mailbox shows it, with the links found in its text. */
export const MailboxMail = z.strictObject({
  id: z.string(),
  to: z.string(),
  subject: z.string(),
  text: z.string(),
  html: z.string(),
  links: z.array(z.string()),
  sent_at: isoTimestamp().nullable().meta({ description: "Null while the mail waits to be sent" }),
});
