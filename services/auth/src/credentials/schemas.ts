import { z } from "zod";
import { User } from "../users/schemas.js";

/** sign-up and change-password: the token of the session begun, if one was, and the user. */
export const TokenAndUser = z.strictObject({ token: z.string().nullable(), user: User });

/** A password reset asked for: the same answer whether or not the address has an account. */
export const ResetRequested = z.strictObject({ status: z.boolean(), message: z.string() });
