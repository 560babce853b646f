import type { CustomerMail } from "@tollgate/proto";
import { escapeHtml } from "../http/html.js";
import type { Locale } from "../i18n/locales.js";
import { translate } from "../i18n/translate.js";
import type { Mail } from "./mails.sql.js";
import { actionMail, codeBody, type ActionMailKind, type MailBody, type Recipient } from "./messages.js";

type OrderReceipt = Extract<CustomerMail, { kind: "order_receipt" }>;

/** Each subscription notice's mail. */
const SUBSCRIPTION_NOTICES = {
  canceled: "subscriptionCanceled",
  uncanceled: "subscriptionUncanceled",
  revoked: "subscriptionRevoked",
  past_due: "subscriptionPastDue",
  retry_failed: "paymentRetryFailed",
  plan_changed: "subscriptionPlanChanged",
  trial_ending: "trialEnding",
  renewal_upcoming: "renewalUpcoming",
  paused: "subscriptionPaused",
  resumed: "subscriptionResumed",
} as const satisfies Record<Extract<CustomerMail, { kind: "subscription_notice" }>["notice"], ActionMailKind>;

/** An amount in the currency's smallest unit, written as the language writes money (JPY has no cents, EUR two). */
export function moneyIn(locale: Locale, currency: string, amount: number): string {
  const format = new Intl.NumberFormat(locale, { style: "currency", currency: currency.toUpperCase() });
  return format.format(amount / 10 ** (format.resolvedOptions().maximumFractionDigits ?? 2));
}

/** A receipt's lines and totals, as a table in HTML and as aligned lines in text. */
function receiptBody(locale: Locale, receipt: OrderReceipt): MailBody {
  const money = (amount: number) => moneyIn(locale, receipt.currency, amount);
  const label = (part: "subtotal" | "discount" | "tax" | "total" | "invoiceNumber") => translate(locale, `mail.orderReceipt.${part}`);
  const rows: [string, string][] = [
    ...receipt.lines.map((line): [string, string] => [line.label, money(line.amount)]),
    [label("subtotal"), money(receipt.subtotal_amount)],
    ...(receipt.discount_amount ? [[label("discount"), money(-receipt.discount_amount)] as [string, string]] : []),
    [label("tax"), money(receipt.tax_amount)],
    [label("total"), money(receipt.total_amount)],
  ];
  const invoice = `${label("invoiceNumber")}: ${receipt.invoice_number}`;
  const delivered = deliveriesBody(locale, receipt.deliveries);
  const cell = "padding:.25rem 1rem .25rem 0";
  const html = `<table style="border-collapse:collapse;margin:.5rem 0">${rows
    .map(([name, value], index) => {
      const weight = index === rows.length - 1 ? "font-weight:600;" : "";
      return `<tr><td style="${cell};${weight}">${escapeHtml(name)}</td><td style="${cell};text-align:right;${weight}">${escapeHtml(value)}</td></tr>`;
    })
    .join("")}</table>\n<p style="color:#57606a">${escapeHtml(invoice)}</p>${delivered.html}`;
  return { text: `${rows.map(([name, value]) => `${name}: ${value}`).join("\n")}\n${invoice}${delivered.text}`, html };
}

/** What the purchase handed over, under the receipt: each license key set apart to copy, and each benefit's files (in the portal). */
function deliveriesBody(locale: Locale, deliveries: OrderReceipt["deliveries"]): MailBody {
  const parts = deliveries.map((delivery) =>
    delivery.kind === "license_key"
      ? { title: translate(locale, "mail.orderReceipt.licenseKey", { benefit: delivery.benefit }), text: delivery.key, html: codeBody(delivery.key).html }
      : { title: translate(locale, "mail.orderReceipt.downloads", { benefit: delivery.benefit }), text: delivery.files.join("\n"), html: `<ul>${delivery.files.map((file) => `<li>${escapeHtml(file)}</li>`).join("")}</ul>` },
  );
  return {
    text: parts.map((part) => `\n\n${part.title}\n${part.text}`).join(""),
    html: parts.map((part) => `\n<p style="margin:1rem 0 .25rem;font-weight:600">${escapeHtml(part.title)}</p>${part.html}`).join(""),
  };
}

/** A mail billing asked for, written for its recipient, sent under the seller's name and answered to them. */
export function customerMail(to: Recipient, seller: { name: string; replyTo: string | null }, mail: CustomerMail): Mail {
  const sender = { sender: seller };
  switch (mail.kind) {
    case "portal_code":
      return { ...actionMail(to, "portalCode", mail.portal_url, { seller: seller.name, minutes: mail.valid_minutes }, codeBody(mail.code)), ...sender };
    case "email_change":
      return { ...actionMail(to, "customerEmailChange", mail.verify_url, { seller: seller.name, email: to.email, minutes: mail.valid_minutes }), ...sender };
    case "seat_invitation":
      return { ...actionMail(to, "seatInvitation", mail.claim_url, { seller: seller.name, product: mail.product, billingManager: mail.billing_manager, hours: mail.valid_hours }), ...sender };
    case "order_receipt": {
      const values = { seller: seller.name, total: moneyIn(to.locale, mail.currency, mail.total_amount), paidAt: new Date(mail.paid_at) };
      return { ...actionMail(to, "orderReceipt", mail.portal_url, values, receiptBody(to.locale, mail)), ...sender };
    }
    case "subscription_notice": {
      // A date the notice does not speak of is not in its text: now stands in for it.
      const dateOf = (at: string | null) => (at ? new Date(at) : new Date());
      const values = { seller: seller.name, product: mail.product, amount: moneyIn(to.locale, mail.currency, mail.amount), endsAt: dateOf(mail.ends_at), retryAt: dateOf(mail.retry_at) };
      return { ...actionMail(to, SUBSCRIPTION_NOTICES[mail.notice], mail.portal_url, values), ...sender };
    }
    case "refund_notice": {
      const values = { seller: seller.name, amount: moneyIn(to.locale, mail.currency, mail.amount), invoice: mail.invoice_number };
      return { ...actionMail(to, "refundIssued", mail.portal_url, values), ...sender };
    }
  }
}
