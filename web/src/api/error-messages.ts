import { defineMessages, type MessageDescriptor } from "react-intl";
import { t } from "../i18n/translate";

/**
 * What the API's error codes mean to the person reading them, in their language. The codes are
 * better-auth's (`code`) and Polar's (`error`) and stay as they are, since clients match on them;
 * the server's English text is shown only for a code that is not here.
 */
const CODE_MESSAGES = defineMessages({
  INVALID_EMAIL_OR_PASSWORD: { id: "api.error.INVALID_EMAIL_OR_PASSWORD", defaultMessage: "The e-mail address or password is wrong." },
  INVALID_USERNAME_OR_PASSWORD: { id: "api.error.INVALID_USERNAME_OR_PASSWORD", defaultMessage: "The username or password is wrong." },
  INVALID_PASSWORD: { id: "api.error.INVALID_PASSWORD", defaultMessage: "The password is wrong." },
  PASSWORD_TOO_SHORT: { id: "api.error.PASSWORD_TOO_SHORT", defaultMessage: "The password is too short." },
  PASSWORD_TOO_LONG: { id: "api.error.PASSWORD_TOO_LONG", defaultMessage: "The password is too long." },
  EMAIL_NOT_VERIFIED: { id: "api.error.EMAIL_NOT_VERIFIED", defaultMessage: "Verify your e-mail address first: open the link we sent you." },
  EMAIL_ALREADY_VERIFIED: { id: "api.error.EMAIL_ALREADY_VERIFIED", defaultMessage: "Your e-mail address is already verified." },
  INVALID_OTP: { id: "api.error.INVALID_OTP", defaultMessage: "That code is not right. Check the e-mail and try again." },
  OTP_EXPIRED: { id: "api.error.OTP_EXPIRED", defaultMessage: "That code has expired. Send a new one." },
  TOO_MANY_ATTEMPTS: { id: "api.error.TOO_MANY_ATTEMPTS", defaultMessage: "Too many wrong tries: that code no longer works. Send a new one." },
  BANNED_USER: { id: "api.error.BANNED_USER", defaultMessage: "This account has been banned. Contact support if you think this is a mistake." },
  USER_ALREADY_EXISTS: { id: "api.error.USER_ALREADY_EXISTS", defaultMessage: "An account with this e-mail address already exists. Sign in, or use another address." },
  USERNAME_IS_ALREADY_TAKEN: { id: "api.error.USERNAME_IS_ALREADY_TAKEN", defaultMessage: "That username is taken. Choose another." },
  SESSION_EXPIRED: { id: "api.error.SESSION_EXPIRED", defaultMessage: "For your safety, sign in again before you do this." },
  PASSKEY_NOT_FOUND: { id: "api.error.PASSKEY_NOT_FOUND", defaultMessage: "This passkey is not linked to any account here. Sign in another way, then add it again." },
  AUTHENTICATION_FAILED: { id: "api.error.AUTHENTICATION_FAILED", defaultMessage: "Your passkey could not be checked. Try again, or sign in another way." },
  CHALLENGE_NOT_FOUND: { id: "api.error.CHALLENGE_NOT_FOUND", defaultMessage: "That took too long or was started elsewhere. Please try again." },
  FAILED_TO_VERIFY_REGISTRATION: { id: "api.error.FAILED_TO_VERIFY_REGISTRATION", defaultMessage: "The passkey could not be added. Please try again." },
  AUTH_CANCELLED: { id: "api.error.AUTH_CANCELLED", defaultMessage: "Signing in with a passkey was cancelled." },
  REGISTRATION_CANCELLED: { id: "api.error.REGISTRATION_CANCELLED", defaultMessage: "Adding the passkey was cancelled." },
  PREVIOUSLY_REGISTERED: { id: "api.error.PREVIOUSLY_REGISTERED", defaultMessage: "This device already holds a passkey for your account." },
  FAILED_TO_UNLINK_LAST_ACCOUNT: { id: "api.error.FAILED_TO_UNLINK_LAST_ACCOUNT", defaultMessage: "This is your only way to sign in, so it cannot be removed." },
  ORGANIZATION_NOT_FOUND: { id: "api.error.ORGANIZATION_NOT_FOUND", defaultMessage: "There is no such organization, or you are not a member of it." },
  ORGANIZATION_SLUG_ALREADY_TAKEN: { id: "api.error.ORGANIZATION_SLUG_ALREADY_TAKEN", defaultMessage: "That address is taken by another organization. Choose another." },
  NOT_A_MEMBER: { id: "api.error.NOT_A_MEMBER", defaultMessage: "You are not a member of this organization." },
  ALREADY_A_MEMBER: { id: "api.error.ALREADY_A_MEMBER", defaultMessage: "This person is already a member." },
  ALREADY_INVITED: { id: "api.error.ALREADY_INVITED", defaultMessage: "This person has already been invited." },
  INVITATION_NOT_FOUND: { id: "api.error.INVITATION_NOT_FOUND", defaultMessage: "This invitation no longer exists: it was canceled or answered, or it has expired." },
  NOT_THE_RECIPIENT: { id: "api.error.NOT_THE_RECIPIENT", defaultMessage: "This invitation is for someone else. Sign in with the address it was sent to." },
  VERIFY_BEFORE_ANSWERING: { id: "api.error.VERIFY_BEFORE_ANSWERING", defaultMessage: "Confirm your e-mail address before you answer this invitation." },
  ONLY_OWNER: { id: "api.error.ONLY_OWNER", defaultMessage: "You are the only owner. Make someone else an owner before you leave." },
  TEAM_ALREADY_EXISTS: { id: "api.error.TEAM_ALREADY_EXISTS", defaultMessage: "There is already a team with this name." },
  CANNOT_BAN_YOURSELF: { id: "api.error.CANNOT_BAN_YOURSELF", defaultMessage: "You cannot ban yourself." },
  CANNOT_IMPERSONATE_ADMINS: { id: "api.error.CANNOT_IMPERSONATE_ADMINS", defaultMessage: "Admins cannot be impersonated." },
  NOT_ALLOWED: { id: "api.error.NOT_ALLOWED", defaultMessage: "You are not allowed to do this." },
  NOT_FOUND: { id: "api.error.NOT_FOUND", defaultMessage: "This could not be found. It may have been removed." },
  SIGN_IN_AGAIN: { id: "api.error.SIGN_IN_AGAIN", defaultMessage: "Your session has ended. Sign in again to go on." },
  SERVER_TROUBLE: { id: "api.error.SERVER_TROUBLE", defaultMessage: "Something went wrong on our side. Try again in a moment." },
  PaymentMethodInUseByActiveSubscription: {
    id: "api.error.PaymentMethodInUseByActiveSubscription",
    defaultMessage: "A running subscription renews with this card, and it is your only one: add another card first.",
  },
  INVALID_CODE: { id: "api.error.INVALID_CODE", defaultMessage: "This code is wrong. Check it and try again." },
  INVALID_BACKUP_CODE: { id: "api.error.INVALID_BACKUP_CODE", defaultMessage: "This backup code is wrong or already used." },
  OTP_HAS_EXPIRED: { id: "api.error.OTP_HAS_EXPIRED", defaultMessage: "This code has expired. Ask for a new one." },
  TOO_MANY_ATTEMPTS_REQUEST_NEW_CODE: { id: "api.error.TOO_MANY_ATTEMPTS_REQUEST_NEW_CODE", defaultMessage: "Too many wrong codes. Sign in again, or ask for a new code." },
  INVALID_TWO_FACTOR_COOKIE: { id: "api.error.INVALID_TWO_FACTOR_COOKIE", defaultMessage: "This sign-in has expired. Enter your password again." },
  CustomerSessionCodeInvalidOrExpired: { id: "api.error.CustomerSessionCodeInvalidOrExpired", defaultMessage: "This code is wrong, used or expired. Check the mail, or ask for a new code." },
});

/** Codes that say the same thing to a person, by the message they share. */
const SAME_MEANING: Record<string, keyof typeof CODE_MESSAGES> = {
  USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL: "USER_ALREADY_EXISTS",
  ORGANIZATION_ALREADY_EXISTS: "ORGANIZATION_SLUG_ALREADY_TAKEN",
  YOU_ARE_NOT_A_MEMBER_OF_THIS_ORGANIZATION: "NOT_A_MEMBER",
  USER_IS_NOT_A_MEMBER_OF_THE_ORGANIZATION: "NOT_A_MEMBER",
  USER_IS_ALREADY_A_MEMBER_OF_THIS_ORGANIZATION: "ALREADY_A_MEMBER",
  USER_IS_ALREADY_INVITED_TO_THIS_ORGANIZATION: "ALREADY_INVITED",
  YOU_ARE_NOT_THE_RECIPIENT_OF_THE_INVITATION: "NOT_THE_RECIPIENT",
  EMAIL_VERIFICATION_REQUIRED_BEFORE_ACCEPTING_OR_REJECTING_INVITATION: "VERIFY_BEFORE_ANSWERING",
  YOU_CANNOT_LEAVE_THE_ORGANIZATION_AS_THE_ONLY_OWNER: "ONLY_OWNER",
  YOU_CANNOT_LEAVE_THE_ORGANIZATION_WITHOUT_AN_OWNER: "ONLY_OWNER",
  YOU_CANNOT_BAN_YOURSELF: "CANNOT_BAN_YOURSELF",
  YOU_CANNOT_IMPERSONATE_ADMINS: "CANNOT_IMPERSONATE_ADMINS",
  SESSION_NOT_FRESH: "SESSION_EXPIRED",
  // The WebAuthn errors better-auth's passkey client passes on from the browser.
  ERROR_CEREMONY_ABORTED: "REGISTRATION_CANCELLED",
  ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED: "PREVIOUSLY_REGISTERED",
  // Polar's codes.
  NotPermitted: "NOT_ALLOWED",
  ResourceNotFound: "NOT_FOUND",
  Unauthorized: "SIGN_IN_AGAIN",
  InternalServerError: "SERVER_TROUBLE",
  ServiceUnavailable: "SERVER_TROUBLE",
};

/** The message for an API error code, if the app knows what it means. */
export function messageForCode(code: string): MessageDescriptor | undefined {
  if (Object.hasOwn(CODE_MESSAGES, code)) return CODE_MESSAGES[code as keyof typeof CODE_MESSAGES];
  const shared = SAME_MEANING[code];
  if (shared) return CODE_MESSAGES[shared];
  // better-auth names each refused permission (YOU_ARE_NOT_ALLOWED_TO_BAN_USERS, …); people need only know it is refused.
  return code.startsWith("YOU_ARE_NOT_ALLOWED_TO_") ? CODE_MESSAGES.NOT_ALLOWED : undefined;
}

const PROCESSOR_MESSAGES = defineMessages({
  declined: { id: "api.paymentError.declined", defaultMessage: "Your card was declined." },
  insufficientFunds: { id: "api.paymentError.insufficientFunds", defaultMessage: "Your card has insufficient funds." },
  cardDetailsUsed: { id: "api.paymentError.cardDetailsUsed", defaultMessage: "The card details have expired or were already used; enter them again." },
  notProcessed: { id: "api.paymentError.notProcessed", defaultMessage: "The payment could not be processed. Please try again later." },
  notATestCard: { id: "api.paymentError.notATestCard", defaultMessage: "This is the sandbox: use one of the test cards listed in the README (4242 4242 4242 4242 succeeds)" },
  cardExpired: { id: "api.paymentError.cardExpired", defaultMessage: "The card has expired" },
  bankCheckUnfinished: { id: "api.paymentError.bankCheckUnfinished", defaultMessage: "The bank's check of this payment was not finished in time. Pay again to try once more." },
});

/** Stripe's fixed texts for what a checkout's payment met, said as the app says them. */
const STRIPE_MESSAGES = defineMessages({
  expiredCard: { id: "api.paymentError.stripe.expiredCard", defaultMessage: "Your card has expired." },
  incorrectCvc: { id: "api.paymentError.stripe.incorrectCvc", defaultMessage: "Your card's security code is incorrect." },
  authenticationFailed: { id: "api.paymentError.stripe.authenticationFailed", defaultMessage: "Your bank could not confirm the payment. Try again, or use another card." },
});

const STRIPE_TEXTS: [string, MessageDescriptor][] = [
  [STRIPE_MESSAGES.expiredCard.defaultMessage, STRIPE_MESSAGES.expiredCard],
  [STRIPE_MESSAGES.incorrectCvc.defaultMessage, STRIPE_MESSAGES.incorrectCvc],
  ["The provided PaymentMethod has failed authentication. You can provide payment_method_data or a new PaymentMethod to attempt to fulfill this PaymentIntent again.", STRIPE_MESSAGES.authenticationFailed],
];

const PROCESSOR_MESSAGE_BY_TEXT = new Map<string, MessageDescriptor>([...Object.values(PROCESSOR_MESSAGES).map((message): [string, MessageDescriptor] => [message.defaultMessage, message]), ...STRIPE_TEXTS]);

/**
 * A payment processor's text in the reader's language. The processor gives its reasons as text
 * alone (a checkout's `payment_processor_metadata.payment_error`, a refused card's 422 `msg`), so its
 * fixed texts are the keys; a text the app does not know is shown as it came.
 */
export function processorText(text: string): string {
  const known = PROCESSOR_MESSAGE_BY_TEXT.get(text);
  return known ? t(known) : text;
}
