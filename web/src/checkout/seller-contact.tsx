import { defineMessage, defineMessages, useIntl } from "react-intl";
import { safeHref } from "../ui/markdown";
import type { PublicCheckout } from "./api";

const messages = defineMessages({
  questions: defineMessage<{ seller: string }>({ id: "checkout.seller.questions", defaultMessage: "Questions about {seller}?" }),
  website: { id: "checkout.seller.website", defaultMessage: "Website" },
  terms: { id: "checkout.seller.terms", defaultMessage: "Terms of service" },
  refunds: { id: "checkout.seller.refunds", defaultMessage: "Refund policy" },
});

/**
 * How the buyer reaches the seller and what they agree to by buying, from the seller's settings:
 * the support e-mail, the website, the terms of service and the refund policy, those it has.
 */
export function SellerContact({ seller }: { seller: PublicCheckout["organization"] }) {
  const { formatMessage } = useIntl();
  const links = [
    { label: formatMessage(messages.website), href: seller.website },
    { label: formatMessage(messages.terms), href: seller.terms_of_service_url },
    { label: formatMessage(messages.refunds), href: seller.refund_policy_url },
  ].flatMap(({ label, href }) => {
    const safe = href ? safeHref(href) : null;
    return safe ? [{ label, href: safe }] : [];
  });
  if (!seller.email && links.length === 0) return null;
  return (
    <footer className="checkout-seller">
      {seller.email && (
        <p>
          {formatMessage(messages.questions, { seller: seller.name })} <a href={`mailto:${seller.email}`}>{seller.email}</a>
        </p>
      )}
      {links.length > 0 && (
        <ul className="checkout-seller-links">
          {links.map((link) => (
            <li key={link.label}>
              <a href={link.href} target="_blank" rel="noopener noreferrer">
                {link.label}
              </a>
            </li>
          ))}
        </ul>
      )}
    </footer>
  );
}
