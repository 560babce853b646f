/**
 * The account limits every form shares, as better-auth enforces them: forms/schemas.ts builds its zod
 * rules from these, and the sign-in check (auth/form.ts) uses them without zod.
 */

export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 128;
/** better-auth's username rule: 3–30 letters, digits, underscores and dots. */
export const USERNAME_LENGTH = { min: 3, max: 30 } as const;
export const USERNAME_PATTERN = /^[a-zA-Z0-9_.]+$/;
/** An e-mail address as the forms accept it (zod's own rule, given to z.email in schemas.ts). */
export const EMAIL_PATTERN = /^(?!\.)(?!.*\.\.)([A-Za-z0-9_'+\-.]*)[A-Za-z0-9_+-]@([A-Za-z0-9][A-Za-z0-9-]*\.)+[A-Za-z]{2,}$/;
