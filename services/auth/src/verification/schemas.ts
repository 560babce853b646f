import { z } from "zod";
import { User } from "../users/schemas.js";

/** A followed verification link, answered without a callback: the user when the link changed their address. */
export const EmailVerified = z.strictObject({ status: z.boolean(), user: User.nullable() });
