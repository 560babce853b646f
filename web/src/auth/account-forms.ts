import * as z from "zod/mini";
import { email, optionalUsername, password, says, trimmed, typedTwice, yourName } from "../forms/schemas";
import { ONE_TIME_CODE, oneTimeCodeMessages } from "./form";

/** The forms that open an account and recover its password. Apart from form.ts, whose sign-in check the sign-in page loads without zod. */

export const signUpForm = z
  .object({ name: yourName, email, username: optionalUsername, password, confirm: z.string() })
  .check(z.refine(typedTwice.check, typedTwice.error));
export type SignUpForm = z.infer<typeof signUpForm>;

export const forgotPasswordForm = z.object({ email });
export const resetPasswordForm = z.object({ password, confirm: z.string() }).check(z.refine(typedTwice.check, typedTwice.error));
/** A new password set with a mailed code instead of a link. */
export const codeResetForm = z
  .object({ otp: trimmed(z.regex(ONE_TIME_CODE, says(oneTimeCodeMessages.invalid))), password, confirm: z.string() })
  .check(z.refine(typedTwice.check, typedTwice.error));
