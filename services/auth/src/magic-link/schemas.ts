import { z } from "zod";
import { Session } from "../sessions/schemas.js";
import { User } from "../users/schemas.js";

export const MagicLinkRequest = z.object({
  email: z.email(),
  /** The name a new user gets; ignored for an address that has an account. */
  name: z.string().optional(),
  callbackURL: z.string().optional(),
  newUserCallbackURL: z.string().optional(),
  errorCallbackURL: z.string().optional(),
});

/** The link in the mail: its token, and where the browser goes after (better-auth's defaults: the site's root, and the callback). */
export const MagicLinkQuery = z.object({
  token: z.string(),
  callbackURL: z.string().optional(),
  newUserCallbackURL: z.string().optional(),
  errorCallbackURL: z.string().optional(),
});

/** What the token stands for, stored beside its digest. */
export const MagicLinkRecord = z.strictObject({ email: z.email(), name: z.string().optional() });

/** A link followed without a callback: the session begun, as JSON. */
export const MagicLinkSignedIn = z.strictObject({ token: z.string(), user: User, session: Session });
