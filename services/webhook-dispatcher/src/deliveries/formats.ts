import { z } from "zod";

export const WEBHOOK_FORMATS = ["raw", "discord", "slack"] as const;
export type WebhookFormat = (typeof WEBHOOK_FORMATS)[number];

/** What every stored payload is: Polar's `{type, timestamp, data}`. */
const storedPayload = z.object({ type: z.string(), timestamp: z.string(), data: z.record(z.string(), z.unknown()) });

/** The words that say which resource an event is about: its name, e-mail or amount, and its id. */
function summaryOf(data: Record<string, unknown>): string {
  const text = (key: string) => (typeof data[key] === "string" || typeof data[key] === "number" ? String(data[key]) : null);
  const label = text("name") ?? text("email") ?? text("customer_email") ?? text("description");
  const amount = typeof data.total_amount === "number" && typeof data.currency === "string" ? `${(data.total_amount / 100).toFixed(2)} ${data.currency.toUpperCase()}` : null;
  return [label, amount, text("id") && `(${text("id")})`].filter(Boolean).join(" ") || "no details";
}

/**
 * The body sent to an endpoint: the payload itself for `raw`, or a chat message for Discord's and
 * Slack's incoming webhooks, which would refuse anything else.
 */
export function renderBody(format: WebhookFormat, payload: string): string {
  if (format === "raw") return payload;
  const event = storedPayload.parse(JSON.parse(payload));
  const summary = summaryOf(event.data);
  if (format === "discord") {
    return JSON.stringify({ username: "Tollgate", embeds: [{ title: event.type, description: summary, timestamp: event.timestamp }] });
  }
  return JSON.stringify({
    text: `${event.type}: ${summary}`,
    blocks: [
      { type: "section", text: { type: "mrkdwn", text: `*${event.type}*\n${summary}` } },
      { type: "context", elements: [{ type: "mrkdwn", text: event.timestamp }] },
    ],
  });
}
