import { escapeHtml } from "../http/html.js";
import type { Locale } from "../i18n/locales.js";
import { translate, type MessageId } from "../i18n/translate.js";
import type { Mail } from "./mails.sql.js";

/** Who a mail goes to, and the language they read it in. */
export interface Recipient {
  email: string;
  locale: Locale;
}

/** The mails that carry a link into the account, valid for a while. */
export type AccountLinkKind = "verifyEmail" | "changeEmail" | "resetPassword" | "deleteAccount";

/** The mails that carry a one-time code into the account, for each purpose a code is asked for. */
export type AccountCodeKind = "signInCode" | "verifyEmailCode" | "resetPasswordCode";

/** The mails with one call to action: each has a subject, a lead, an action and a footnote in every catalog. */
export type ActionMailKind =
  | AccountLinkKind
  | AccountCodeKind
  | "magicLink"
  | "invitation"
  | "webhookDisabled"
  | "portalCode"
  | "twoFactorCode"
  | "customerEmailChange"
  | "seatInvitation"
  | "orderReceipt"
  | "subscriptionCanceled"
  | "subscriptionUncanceled"
  | "subscriptionPaused"
  | "subscriptionResumed"
  | "subscriptionRevoked"
  | "subscriptionPastDue"
  | "paymentRetryFailed"
  | "subscriptionPlanChanged"
  | "trialEnding"
  | "renewalUpcoming"
  | "refundIssued";
export type MailValues = Parameters<typeof translate>[2];

/** What a mail shows between its lead and its action, as text and as HTML (escaped by whoever made it). */
export interface MailBody {
  text: string;
  html: string;
}

/**
 * One call to action in the recipient's language, as plain text and as simple HTML that every mail
 * client renders, with `body` (a code, a receipt's lines) after the lead.
 */
export function actionMail(to: Recipient, kind: ActionMailKind, url: string, values?: MailValues, body?: MailBody): Mail {
  const message = (part: "subject" | "lead" | "action" | "footnote") => translate(to.locale, `mail.${kind}.${part}` satisfies MessageId, values);
  const [lead, action, footnote] = [message("lead"), message("action"), message("footnote")];
  const text = `${lead}\n\n${body ? `${body.text}\n\n` : ""}${translate(to.locale, "mail.linkLine", { action, url })}\n\n${footnote}\n`;
  const html = `<!doctype html><html lang="${to.locale}"><body style="font-family:system-ui,sans-serif;color:#1b1f24">
<p>${escapeHtml(lead)}</p>${body ? `\n${body.html}` : ""}
<p><a href="${escapeHtml(url)}" style="display:inline-block;padding:.6rem 1.2rem;background:#1b1f24;color:#fff;border-radius:.4rem;text-decoration:none">${escapeHtml(action)}</a></p>
<p style="color:#57606a;font-size:.9em">${escapeHtml(footnote)}<br>${escapeHtml(url)}</p>
</body></html>`;
  return { to: to.email, subject: message("subject"), text, html };
}

/** The code set apart, large and in a fixed-width face, so it is read and typed without mistaking a letter. */
export const codeBody = (code: string): MailBody => ({
  text: code,
  html: `<p style="font:600 1.6em/1.4 ui-monospace,monospace;letter-spacing:.2em;padding:.6rem 1rem;background:#f3f4f6;border-radius:.4rem;display:inline-block">${escapeHtml(code)}</p>`,
});

/** The second factor of a sign-in, by e-mail; its action opens the site where the sign-in waits. */
export const twoFactorCodeMail = (to: Recipient, code: string, siteUrl: string, validSeconds: number) =>
  actionMail(to, "twoFactorCode", siteUrl, { minutes: Math.round(validSeconds / 60) }, codeBody(code));

/** Hours a link stays valid, as the mails state it. */
const hoursOf = (seconds: number) => Math.round(seconds / 3600);

export const accountLinkMail = (kind: AccountLinkKind, to: Recipient, url: string, validSeconds: number) => actionMail(to, kind, url, { hours: hoursOf(validSeconds) });

export const invitationMail = (to: Recipient, invitation: { inviter: string; organization: string; url: string; expiresAt: Date }) =>
  actionMail(to, "invitation", invitation.url, { inviter: invitation.inviter, organization: invitation.organization, expiresAt: invitation.expiresAt });

export const webhookDisabledMail = (to: Recipient, endpoint: { url: string; failedAttempts: number; manageUrl: string }) =>
  actionMail(to, "webhookDisabled", endpoint.manageUrl, { endpoint: endpoint.url, failedAttempts: endpoint.failedAttempts });

/** Minutes a short-lived link or code stays valid, as the mails state it. */
const minutesOf = (seconds: number) => Math.round(seconds / 60);

export const magicLinkMail = (to: Recipient, url: string, validSeconds: number) => actionMail(to, "magicLink", url, { minutes: minutesOf(validSeconds) });

/** A one-time code, with a link to the page where it is typed in. */
export const accountCodeMail = (kind: AccountCodeKind, to: Recipient, code: string, pageUrl: string, validSeconds: number) =>
  actionMail(to, kind, pageUrl, { minutes: minutesOf(validSeconds) }, codeBody(code));
