import { createRootRoute, Link } from "@tanstack/react-router";
import { defineMessage, defineMessages, FormattedMessage, type MessageTag } from "react-intl";
import { Shell } from "./shell";

/** The app's root route, in its own module so that the seller's space (seller/space-route.ts) can hang from it without importing router.tsx. */

const messages = defineMessages({
  notFoundTitle: { id: "router.notFound.title", defaultMessage: "Page not found" },
  notFoundText: defineMessage<{ link: MessageTag }>({ id: "router.notFound.text", defaultMessage: "There is nothing at this address. <link>Go to the start page</link>." }),
});

export function NotFound() {
  return (
    <section className="page">
      <h1>
        <FormattedMessage {...messages.notFoundTitle} />
      </h1>
      <p>
        <FormattedMessage {...messages.notFoundText} values={{ link: (chunks) => <Link to="/">{chunks}</Link> }} />
      </p>
    </section>
  );
}

export const rootRoute = createRootRoute({ component: Shell, notFoundComponent: NotFound });
