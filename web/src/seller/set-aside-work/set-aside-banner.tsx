import { Link } from "@tanstack/react-router";
import { defineMessage, useIntl } from "react-intl";
import { Alert } from "../../ui/components";
import { useSetAsideWork } from "./queries";

const message = defineMessage<{ total: number }>({
  id: "seller.setAside.banner",
  defaultMessage: "{total, plural, one {# background task kept failing and was set aside.} other {# background tasks kept failing and were set aside.}}",
});
const see = defineMessage({ id: "seller.setAside.banner.see", defaultMessage: "See what and why" });

/** How often the console looks again: work is set aside rarely, and a seller should hear of it without reloading. */
const REFRESH_MS = 60_000;

/** Tells the seller, on every console screen, that some of their background work is set aside and waits for them. */
export function SetAsideBanner({ sellerId, slug }: { sellerId: string; slug: string }) {
  const { formatMessage } = useIntl();
  // Said only of work known to be set aside: while it loads, or when it cannot be read, the console goes on quietly.
  const total = useSetAsideWork(sellerId, { refetchInterval: REFRESH_MS }).data?.total ?? 0;
  if (total === 0) return null;
  return (
    <Alert tone="error">
      {formatMessage(message, { total })}{" "}
      <Link to="/$slug/set-aside-work" params={{ slug }}>
        {formatMessage(see)}
      </Link>
    </Alert>
  );
}
