import { defineMessages, FormattedMessage } from "react-intl";

const messages = defineMessages({
  enabled: { id: "seller.webhooks.enabled", defaultMessage: "Enabled" },
  disabled: { id: "seller.webhooks.disabled", defaultMessage: "Disabled" },
});

/** Whether an endpoint is sent events. */
export function EnabledBadge({ enabled }: { enabled: boolean }) {
  return <span className={enabled ? "badge" : "badge badge-danger"}>{<FormattedMessage {...(enabled ? messages.enabled : messages.disabled)} />}</span>;
}
