import { z } from "zod";
import { User } from "../users/schemas.js";

/** A followed verification link, answered without a callback: the user when the link changed their address. */
export const EmailVerified = z.strictObject({ status: z.boolean(), user: User.nullable() });

export const VerificationMailRequest = z.object({ email: z.email(), callbackURL: z.string().optional() });

/** The link in a verification mail: its token, and where to send the browser after. */
export const EmailVerification = z.object({ token: z.string(), callbackURL: z.string().optional() });
