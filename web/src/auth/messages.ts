/**
 * What each error code a sign-in flow can end with means to the person reading it. The codes are
 * better-auth's (and the social callback's); anything else is shown as it came.
 */
export const FLOW_ERRORS: Record<string, string> = {
  state_not_found: "The sign-in link was incomplete. Please start signing in again.",
  please_restart_the_process: "That sign-in took too long or was already used. Please start again.",
  state_mismatch: "That sign-in was started in another browser or tab. Please start again here.",
  invalid_callback_request: "The provider sent an answer we could not read. Please start again.",
  no_code: "The provider did not finish signing you in. Please try again.",
  oauth_provider_not_found: "That sign-in provider is not available here.",
  invalid_code: "The provider would not confirm your sign-in. Please try again.",
  unable_to_get_user_info: "The provider did not share your profile with us. Please try again.",
  email_not_found: "The provider did not share an e-mail address, which we need to sign you in.",
  no_callback_url: "The sign-in had nowhere to return to. Please start again.",
  account_not_linked:
    "An account with this e-mail address already exists. Sign in with your password first, then link this provider from your account settings.",
  account_already_linked_to_different_user: "That account is already linked to another user.",
  unable_to_link_account: "That account could not be linked: the provider did not confirm its e-mail address, or linking is turned off.",
  email_does_not_match: "That account's e-mail address is not yours. Link an account with the same address.",
  signup_disabled: "New accounts cannot be created with this provider. Sign in with an existing account.",
  email_not_verified: "Please verify your e-mail address first. We have sent you a new link.",
  banned: "This account has been suspended. Contact support if you think this is a mistake.",
  access_denied: "You cancelled signing in at the provider.",
  INVALID_TOKEN: "This link is invalid. Request a new one.",
  TOKEN_EXPIRED: "This link has expired. Request a new one.",
  USER_NOT_FOUND: "There is no account for this link any more.",
};

export const describeFlowError = (code: string | null | undefined) =>
  code ? (FLOW_ERRORS[code] ?? `Something went wrong (${code}). Please try again.`) : "Something went wrong. Please try again.";
