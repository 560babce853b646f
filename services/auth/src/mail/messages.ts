import type { Mail } from "./mails.sql.js";

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (char) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[char] ?? char);

/** One call to action, as plain text and as simple HTML that every mail client renders. */
function actionMail(to: string, subject: string, lead: string, action: string, url: string, footnote: string): Mail {
  const text = `${lead}\n\n${action}: ${url}\n\n${footnote}\n`;
  const html = `<!doctype html><html><body style="font-family:system-ui,sans-serif;color:#1b1f24">
<p>${escapeHtml(lead)}</p>
<p><a href="${escapeHtml(url)}" style="display:inline-block;padding:.6rem 1.2rem;background:#1b1f24;color:#fff;border-radius:.4rem;text-decoration:none">${escapeHtml(action)}</a></p>
<p style="color:#57606a;font-size:.9em">${escapeHtml(footnote)}<br>${escapeHtml(url)}</p>
</body></html>`;
  return { to, subject, text, html };
}

export const verificationMail = (to: string, url: string) =>
  actionMail(to, "Verify your e-mail address", "Please confirm that this is your e-mail address.", "Verify e-mail address", url, "If you did not ask for this, you can ignore this mail. The link works for one hour.");

export const changeEmailMail = (to: string, url: string) =>
  actionMail(to, "Confirm your new e-mail address", "You asked to use this address for your account from now on.", "Use this address", url, "Until you confirm, your account keeps its current address. If you did not ask for this, ignore this mail. The link works for one hour.");

export const resetPasswordMail = (to: string, url: string) =>
  actionMail(to, "Reset your password", "Someone asked to reset the password of your account.", "Choose a new password", url, "If it was not you, ignore this mail: your password stays as it is. The link works once, for one hour.");

export const deleteAccountMail = (to: string, url: string) =>
  actionMail(to, "Confirm deleting your account", "You asked to delete your account. This cannot be undone.", "Delete my account", url, "If it was not you, ignore this mail and consider changing your password. The link works for one day.");

export const invitationMail = (to: string, inviter: string, organization: string, url: string) =>
  actionMail(to, `Join ${organization} on Tollgate`, `${inviter} invited you to join ${organization}.`, "Accept the invitation", url, "If you do not know them, ignore this mail. The invitation lasts 48 hours.");

export const webhookDisabledMail = (to: string, endpointUrl: string, failedAttempts: number, manageUrl: string) =>
  actionMail(
    to,
    "A webhook endpoint was turned off",
    `Tollgate turned off the webhook endpoint ${endpointUrl} after its last ${failedAttempts} deliveries failed. Events for it are no longer sent.`,
    "Review the endpoint",
    manageUrl,
    "Once it answers again, turn it back on to resume deliveries; events it missed can be redelivered.",
  );
