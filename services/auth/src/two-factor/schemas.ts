import { z } from "zod";
import { User } from "../users/schemas.js";

export const EnableTwoFactor = z.object({
  password: z.string(),
  method: z.enum(["otp", "totp"]).default("totp").meta({ description: "totp sets up an authenticator app (confirmed by its first code); otp turns on codes by e-mail at once" }),
  issuer: z.string().optional().meta({ description: "The name the authenticator app shows for the account" }),
});

/** enable's answer: with an authenticator app, the URI to scan and the backup codes, shown this once. */
export const TwoFactorEnabled = z.strictObject({
  method: z.enum(["otp", "totp"]),
  totpURI: z.string().optional(),
  backupCodes: z.array(z.string()).optional(),
});

export const PasswordConfirmation = z.object({ password: z.string() });

export const TotpUri = z.strictObject({ totpURI: z.string() });

export const NewBackupCodes = z.strictObject({ status: z.boolean(), backupCodes: z.array(z.string()) });

const trustDevice = z.boolean().optional().meta({ description: "Trust this browser: its sign-ins skip the second factor for 30 days" });

/** A code from the app, an e-mailed code or a backup code. */
export const CodeVerification = z.object({ code: z.string(), trustDevice });

export const SendEmailCode = z.object({ trustDevice }).optional();

/** A second factor verified: the session's token (null for a signed-in caller whose request came without it) and the user. */
export const SecondFactorVerified = z.strictObject({ token: z.string().nullable(), user: User });

/** A password sign-in held back for its second factor: no session yet, and the factors the user can give. */
export const TwoFactorRedirect = z.strictObject({ twoFactorRedirect: z.literal(true), twoFactorMethods: z.array(z.enum(["totp", "otp"])) });
