import { z } from "zod";
import { User } from "../users/schemas.js";

/** What a mailed code is for: better-auth's types, but for change-email, which Tollgate does by link. */
export const CodePurpose = z.enum(["sign-in", "email-verification", "forget-password"]);
export type CodePurpose = z.infer<typeof CodePurpose>;

/** The address as typed: better-auth lower-cases it and answers INVALID_EMAIL itself when it is no address. */
const Address = z.string();

export const CodeRequest = z.object({ email: Address, type: CodePurpose });

export const ResetCodeRequest = z.object({ email: Address });

export const CodeCheck = z.object({ email: Address, type: CodePurpose, otp: z.string() });

export const CodeEntry = z.object({ email: Address, otp: z.string() });

/** A code's sign-in: a new user's name and picture, when the address has no account yet. */
export const CodeSignIn = z.object({ email: Address, otp: z.string(), name: z.string().optional(), image: z.string().optional() });

export const CodePasswordReset = z.object({ email: Address, otp: z.string(), password: z.string() });

/** The code's sign-in: the new session's token and the user. */
export const CodeSignedIn = z.strictObject({ token: z.string(), user: User });

/** A verified address: better-auth's token is null unless it signs in after verifying, which Tollgate does not. */
export const CodeVerifiedEmail = z.strictObject({ status: z.boolean(), token: z.string().nullable(), user: User });
