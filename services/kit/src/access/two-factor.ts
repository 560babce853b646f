/**
 * An organization may require two-factor authentication of its members (its owners decide, in the
 * organization service). Only signed-in users are bound by it: an organization's access tokens and
 * its customers' sessions are not people signing in.
 */

/** What a refused member is told, by the organization service (code TWO_FACTOR_REQUIRED) and the seller APIs alike. */
export const TWO_FACTOR_REQUIRED_MESSAGE = "This organization requires two-factor authentication. Enable it in your account's security settings.";

/** Whether a signed-in user whose session has (`true`) or lacks two-factor may act for an organization that does or does not require it. */
export const meetsTwoFactorRequirement = (requireTwoFactor: boolean, twoFactor: boolean | undefined): boolean => !requireTwoFactor || twoFactor === true;
