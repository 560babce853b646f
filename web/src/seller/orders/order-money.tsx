import { useQuery } from "@tanstack/react-query";
import { defineMessage, defineMessages, FormattedMessage, useIntl } from "react-intl";
import { longDate, longDateTime, money } from "../../i18n/format";
import { Card } from "../../ui/components";
import { QueryState } from "../../ui/query-state";
import type { Dispute, Order, Payment } from "./api";
import { disputesQuery, paymentsQuery } from "./queries";

const messages = defineMessages({
  payments: { id: "seller.order.payments", defaultMessage: "Payments" },
  loadingPayments: { id: "seller.order.loadingPayments", defaultMessage: "Loading the payments…" },
  noPayments: { id: "seller.order.noPayments", defaultMessage: "Nothing was charged for this order." },
  paymentLine: defineMessage<{ amount: string; card: string; date: string }>({ id: "seller.order.paymentLine", defaultMessage: "{amount} with {card} on {date}" }),
  noCard: { id: "seller.order.payment.noCard", defaultMessage: "Card not read" },
  disputes: { id: "seller.order.disputes", defaultMessage: "Disputes" },
  loadingDisputes: { id: "seller.order.loadingDisputes", defaultMessage: "Loading the disputes…" },
  noDisputes: { id: "seller.order.noDisputes", defaultMessage: "No bank has disputed a payment of this order." },
  disputeLine: defineMessage<{ amount: string; date: string }>({ id: "seller.order.disputeLine", defaultMessage: "{amount}, opened on {date}" }),
});

/** Why a card was declined, by the reason Tollgate records; another reason shows the processor's own words. */
const declineMessages = defineMessages({
  card_declined: { id: "seller.order.decline.cardDeclined", defaultMessage: "The bank declined the card." },
  insufficient_funds: { id: "seller.order.decline.insufficientFunds", defaultMessage: "The card has insufficient funds." },
  expired_card: { id: "seller.order.decline.expiredCard", defaultMessage: "The card has expired." },
  incorrect_cvc: { id: "seller.order.decline.incorrectCvc", defaultMessage: "The card's security code was wrong." },
  authentication_required: { id: "seller.order.decline.authenticationRequired", defaultMessage: "The bank wanted the customer to confirm the payment." },
  invalid_confirmation_token: { id: "seller.order.decline.invalidToken", defaultMessage: "The card details had expired or were already used." },
});

const isKnownDecline = (reason: string): reason is keyof typeof declineMessages => reason in declineMessages;

const paymentStatusMessages = defineMessages<Payment["status"]>({
  pending: { id: "seller.order.payment.pending", defaultMessage: "Waiting" },
  succeeded: { id: "seller.order.payment.succeeded", defaultMessage: "Paid" },
  failed: { id: "seller.order.payment.failed", defaultMessage: "Declined" },
});

const disputeStatusMessages = defineMessages<Dispute["status"]>({
  prevented: { id: "seller.order.dispute.prevented", defaultMessage: "Prevented" },
  early_warning: { id: "seller.order.dispute.earlyWarning", defaultMessage: "Early warning from the bank" },
  needs_response: { id: "seller.order.dispute.needsResponse", defaultMessage: "Needs your response" },
  under_review: { id: "seller.order.dispute.underReview", defaultMessage: "Under review by the bank" },
  lost: { id: "seller.order.dispute.lost", defaultMessage: "Lost" },
  won: { id: "seller.order.dispute.won", defaultMessage: "Won" },
});

/** The card a payment was made with, as far as the processor saw it. */
const cardOf = (payment: Payment) => ("method_metadata" in payment ? `${payment.method_metadata.brand} •••• ${payment.method_metadata.last4}` : null);

/** Every attempt to pay the order: when, with which card, how much, and what the bank said. */
export function OrderPayments({ order }: { order: Order }) {
  const { formatMessage } = useIntl();
  const payments = useQuery(paymentsQuery(order));
  return (
    <Card title={formatMessage(messages.payments)}>
      <QueryState query={payments} loading={messages.loadingPayments} isEmpty={(listing) => listing.items.length === 0} empty={<p className="muted">{formatMessage(messages.noPayments)}</p>}>
        {(listing) => (
          <ul className="list-plain">
            {listing.items.map((payment) => (
              <li key={payment.id}>
                <FormattedMessage {...messages.paymentLine} values={{ amount: money(payment.amount, payment.currency), card: cardOf(payment) ?? formatMessage(messages.noCard), date: longDateTime(payment.created_at) }} />{" "}
                <span className={payment.status === "failed" ? "badge badge-danger" : "badge"}>{formatMessage(paymentStatusMessages[payment.status])}</span>
                {payment.decline_reason && <span className="muted"> {isKnownDecline(payment.decline_reason) ? formatMessage(declineMessages[payment.decline_reason]) : payment.decline_message}</span>}
              </li>
            ))}
          </ul>
        )}
      </QueryState>
    </Card>
  );
}

/** The disputes buyers' banks opened against the order's payments, and where each stands. */
export function OrderDisputes({ order }: { order: Order }) {
  const { formatMessage } = useIntl();
  const disputes = useQuery(disputesQuery(order.id));
  return (
    <Card title={formatMessage(messages.disputes)}>
      <QueryState query={disputes} loading={messages.loadingDisputes} isEmpty={(listing) => listing.items.length === 0} empty={<p className="muted">{formatMessage(messages.noDisputes)}</p>}>
        {(listing) => (
          <ul className="list-plain">
            {listing.items.map((dispute) => (
              <li key={dispute.id}>
                <span className={dispute.status === "lost" || dispute.status === "needs_response" ? "badge badge-danger" : "badge"}>{formatMessage(disputeStatusMessages[dispute.status])}</span>{" "}
                <FormattedMessage {...messages.disputeLine} values={{ amount: money(dispute.amount + dispute.tax_amount, dispute.currency), date: longDate(dispute.created_at) }} />
              </li>
            ))}
          </ul>
        )}
      </QueryState>
    </Card>
  );
}
