import { defineMessages } from "react-intl";
import { t } from "../i18n/translate";

/**
 * What each error code a sign-in flow can end with means to the person reading it. The codes are
 * better-auth's (and the social callback's) and stay as they are; only their meaning is translated.
 */
const FLOW_ERRORS = defineMessages({
  state_not_found: { id: "auth.flowError.state_not_found", defaultMessage: "The sign-in link was incomplete. Please start signing in again." },
  please_restart_the_process: { id: "auth.flowError.please_restart_the_process", defaultMessage: "That sign-in took too long or was already used. Please start again." },
  state_mismatch: { id: "auth.flowError.state_mismatch", defaultMessage: "That sign-in was started in another browser or tab. Please start again here." },
  invalid_callback_request: { id: "auth.flowError.invalid_callback_request", defaultMessage: "The provider sent an answer we could not read. Please start again." },
  no_code: { id: "auth.flowError.no_code", defaultMessage: "The provider did not finish signing you in. Please try again." },
  oauth_provider_not_found: { id: "auth.flowError.oauth_provider_not_found", defaultMessage: "That sign-in provider is not available here." },
  invalid_code: { id: "auth.flowError.invalid_code", defaultMessage: "The provider would not confirm your sign-in. Please try again." },
  unable_to_get_user_info: { id: "auth.flowError.unable_to_get_user_info", defaultMessage: "The provider did not share your profile with us. Please try again." },
  email_not_found: { id: "auth.flowError.email_not_found", defaultMessage: "The provider did not share an e-mail address, which we need to sign you in." },
  no_callback_url: { id: "auth.flowError.no_callback_url", defaultMessage: "The sign-in had nowhere to return to. Please start again." },
  account_not_linked: {
    id: "auth.flowError.account_not_linked",
    defaultMessage: "An account with this e-mail address already exists. Sign in with your password first, then link this provider from your account settings.",
  },
  account_already_linked_to_different_user: { id: "auth.flowError.account_already_linked_to_different_user", defaultMessage: "That account is already linked to another user." },
  unable_to_link_account: {
    id: "auth.flowError.unable_to_link_account",
    defaultMessage: "That account could not be linked: the provider did not confirm its e-mail address, or linking is turned off.",
  },
  email_does_not_match: { id: "auth.flowError.email_does_not_match", defaultMessage: "That account's e-mail address is not yours. Link an account with the same address." },
  signup_disabled: { id: "auth.flowError.signup_disabled", defaultMessage: "New accounts cannot be created with this provider. Sign in with an existing account." },
  email_not_verified: { id: "auth.flowError.email_not_verified", defaultMessage: "Please verify your e-mail address first. We have sent you a new link." },
  banned: { id: "auth.flowError.banned", defaultMessage: "This account has been suspended. Contact support if you think this is a mistake." },
  access_denied: { id: "auth.flowError.access_denied", defaultMessage: "You cancelled signing in at the provider." },
  INVALID_TOKEN: { id: "auth.flowError.INVALID_TOKEN", defaultMessage: "This link is invalid. Request a new one." },
  TOKEN_EXPIRED: { id: "auth.flowError.TOKEN_EXPIRED", defaultMessage: "This link has expired. Request a new one." },
  USER_NOT_FOUND: { id: "auth.flowError.USER_NOT_FOUND", defaultMessage: "There is no account for this link any more." },
});

const messages = defineMessages({
  unknownCode: { id: "auth.flowError.unknownCode", defaultMessage: "Something went wrong ({code}). Please try again." },
  unknown: { id: "auth.flowError.unknown", defaultMessage: "Something went wrong. Please try again." },
});

const isKnownCode = (code: string): code is keyof typeof FLOW_ERRORS => Object.hasOwn(FLOW_ERRORS, code);

export const describeFlowError = (code: string | null | undefined) => {
  if (!code) return t(messages.unknown);
  return isKnownCode(code) ? t(FLOW_ERRORS[code]) : t(messages.unknownCode, { code });
};
