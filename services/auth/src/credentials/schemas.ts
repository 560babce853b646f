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
