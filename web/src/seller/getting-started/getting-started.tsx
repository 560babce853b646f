import { useQuery } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { useState } from "react";
import { defineMessage, defineMessages, useIntl, type MessageDescriptor } from "react-intl";
import { Button } from "../../ui/components";
import { QueryState, together } from "../../ui/query-state";
import { useSeller } from "../space";
import { hasCheckoutLink, hasEndpoint, hasOrder, hasProduct } from "./queries";

const messages = defineMessages({
  title: { id: "seller.start.title", defaultMessage: "Get started" },
  intro: { id: "seller.start.intro", defaultMessage: "Four steps from a new organization to a first sale. Each ticks itself off once it is done." },
  doneCount: defineMessage<{ done: number; total: number }>({ id: "seller.start.doneCount", defaultMessage: "{done, number} of {total, number} done" }),
  allDone: { id: "seller.start.allDone", defaultMessage: "All done: you are ready to sell." },
  loading: { id: "seller.start.loading", defaultMessage: "Checking what is set up…" },
  hide: { id: "seller.start.hide", defaultMessage: "Hide this list" },
  done: { id: "seller.start.done", defaultMessage: "Done:" },
  toDo: { id: "seller.start.toDo", defaultMessage: "To do:" },
  product: { id: "seller.start.product", defaultMessage: "Create a product" },
  productHint: { id: "seller.start.productHint", defaultMessage: "What you sell, and its price: once, or every month or year." },
  productAction: { id: "seller.start.productAction", defaultMessage: "New product" },
  link: { id: "seller.start.link", defaultMessage: "Share a checkout link" },
  linkHint: { id: "seller.start.linkHint", defaultMessage: "A link to your product's checkout page, to put on your site or send to buyers." },
  linkAction: { id: "seller.start.linkAction", defaultMessage: "New checkout link" },
  webhook: { id: "seller.start.webhook", defaultMessage: "Add a webhook endpoint" },
  webhookHint: { id: "seller.start.webhookHint", defaultMessage: "Your system is told of each order and subscription as it happens." },
  webhookAction: { id: "seller.start.webhookAction", defaultMessage: "Webhooks" },
  purchase: { id: "seller.start.purchase", defaultMessage: "Make a test purchase" },
  purchaseHint: defineMessage<{ card: string }>({ id: "seller.start.purchaseHint", defaultMessage: "Open your checkout link and pay with the sandbox card {card}, any future date and any CVC." }),
  purchaseAction: { id: "seller.start.purchaseAction", defaultMessage: "Checkout links" },
});

// Remembered in this browser, per organization: hiding the list is a matter of taste, not of the seller's data.
const hiddenKey = (organizationId: string) => `tollgate.getting-started.hidden.${organizationId}`;
const SANDBOX_CARD = "4242 4242 4242 4242";

type Place = "/$slug/products/new" | "/$slug/checkout-links/new" | "/$slug/webhooks" | "/$slug/checkout-links";

interface Step {
  title: MessageDescriptor;
  hint: string;
  action: MessageDescriptor;
  to: Place;
  done: boolean;
}

/** The console's front page for a new organization: the steps to a first sale, ticked off from what the API has. */
export function GettingStarted() {
  const seller = useSeller();
  const [hidden, setHidden] = useState(() => localStorage.getItem(hiddenKey(seller.id)) !== null);
  if (hidden) return null;
  const hide = () => {
    localStorage.setItem(hiddenKey(seller.id), "");
    setHidden(true);
  };
  return <Checklist organizationId={seller.id} slug={seller.slug} onHide={hide} />;
}

function Checklist({ organizationId, slug, onHide }: { organizationId: string; slug: string; onHide: () => void }) {
  const { formatMessage } = useIntl();
  const state = together(useQuery(hasProduct(organizationId)), useQuery(hasCheckoutLink(organizationId)), useQuery(hasEndpoint(organizationId)), useQuery(hasOrder(organizationId)));
  return (
    <section className="card getting-started" aria-labelledby="getting-started-title">
      <div className="getting-started-head">
        <h2 id="getting-started-title">{formatMessage(messages.title)}</h2>
        <Button variant="ghost" onClick={onHide}>
          {formatMessage(messages.hide)}
        </Button>
      </div>
      <p className="muted">{formatMessage(messages.intro)}</p>
      <QueryState query={state} loading={messages.loading}>
        {([product, link, endpoint, order]) => {
          const steps: Step[] = [
            { title: messages.product, hint: formatMessage(messages.productHint), action: messages.productAction, to: "/$slug/products/new", done: product },
            { title: messages.link, hint: formatMessage(messages.linkHint), action: messages.linkAction, to: "/$slug/checkout-links/new", done: link },
            { title: messages.webhook, hint: formatMessage(messages.webhookHint), action: messages.webhookAction, to: "/$slug/webhooks", done: endpoint },
            { title: messages.purchase, hint: formatMessage(messages.purchaseHint, { card: SANDBOX_CARD }), action: messages.purchaseAction, to: "/$slug/checkout-links", done: order },
          ];
          const done = steps.filter((step) => step.done).length;
          // One step at a time stands out: the first not yet done.
          const next = steps.find((step) => !step.done);
          return (
            <>
              <p className="getting-started-count">{done === steps.length ? formatMessage(messages.allDone) : formatMessage(messages.doneCount, { done, total: steps.length })}</p>
              <ol className="checklist">
                {steps.map((step) => (
                  <li key={step.to + String(step.title.id)} className={step.done ? "checklist-done" : undefined}>
                    <span className="checklist-mark" aria-hidden="true">
                      {step.done ? "✓" : ""}
                    </span>
                    <div className="checklist-text">
                      <p className="checklist-title">
                        <span className="sr-only">{formatMessage(step.done ? messages.done : messages.toDo)} </span>
                        {formatMessage(step.title)}
                      </p>
                      <p className="muted">{step.hint}</p>
                    </div>
                    <Link className={`button ${step === next ? "button-primary" : "button-secondary"}`} to={step.to} params={{ slug }}>
                      {formatMessage(step.action)}
                    </Link>
                  </li>
                ))}
              </ol>
            </>
          );
        }}
      </QueryState>
    </section>
  );
}
