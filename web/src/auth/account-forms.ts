import * as z from "zod/mini";
import { email, optionalUsername, password, typedTwice, yourName } from "../forms/schemas";

/** The forms that open an account and recover its password. Apart from form.ts, whose sign-in check the sign-in page loads without zod. */

export const signUpForm = z
  .object({ name: yourName, email, username: optionalUsername, password, confirm: z.string() })
  .check(z.refine(typedTwice.check, typedTwice.error));
export type SignUpForm = z.infer<typeof signUpForm>;

export const forgotPasswordForm = z.object({ email });
export const resetPasswordForm = z.object({ password, confirm: z.string() }).check(z.refine(typedTwice.check, typedTwice.error));
