import { z } from "zod";
import { User } from "../users/schemas.js";
import { LocaleTag } from "../i18n/locales.js";

/** sign-up and change-password: the token of the session begun, if one was, and the user. */
export const TokenAndUser = z.strictObject({ token: z.string().nullable(), user: User });

/** A password reset asked for: the same answer whether or not the address has an account. */
export const ResetRequested = z.strictObject({ status: z.boolean(), message: z.string() });

export const SignUp = z.object({
  name: z.string(),
  email: z.email(),
  password: z.string().min(1),
  image: z.string().optional(),
  callbackURL: z.string().optional(),
  rememberMe: z.boolean().optional(),
  username: z.string().optional(),
  displayUsername: z.string().optional(),
  locale: LocaleTag.nullable().optional(),
});

export const EmailSignIn = z.object({ email: z.string(), password: z.string(), callbackURL: z.string().optional(), rememberMe: z.boolean().optional() });

export const UsernameSignIn = z.object({ username: z.string(), password: z.string(), callbackURL: z.string().optional(), rememberMe: z.boolean().optional() });

export const PasswordChange = z.object({ newPassword: z.string(), currentPassword: z.string(), revokeOtherSessions: z.boolean().optional() });

export const ResetRequest = z.object({ email: z.email(), redirectTo: z.string().optional() });

/** The link in a reset mail: its token in the path, and the app's page to go on to. */
export const ResetLinkParams = z.object({ token: z.string() });

export const ResetLinkQuery = z.object({ callbackURL: z.string() });

/** A new password, with the reset token in the body or (as older clients send it) the query. */
export const PasswordReset = z.object({ newPassword: z.string(), token: z.string().optional() });

export const PasswordResetQuery = z.object({ token: z.string().optional() });
