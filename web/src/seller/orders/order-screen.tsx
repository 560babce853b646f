import { useQuery } from "@tanstack/react-query";
import { Link, useParams } from "@tanstack/react-router";
import { defineMessage, defineMessages, FormattedMessage, useIntl } from "react-intl";
import { QueryState } from "../../ui/query-state";
import { longDate, longDateTime, money } from "../../i18n/format";
import { Card, Page } from "../../ui/components";
import { Facts } from "../../ui/facts";
import { OrderAnswers } from "./order-answers";
import { OrderDisputes, OrderPayments } from "./order-money";
import { useSeller } from "../space";
import { creditNoteUrl, orderDocumentUrl, refundableOf, type Order } from "./api";
import { describeFailure, failureOf } from "../../api/client";
import { DocumentButtons } from "../../ui/document-buttons";
import { creditNotesQuery, orderQuery, refundsQuery } from "./queries";
import { billingReasonMessages, refundReasonMessages, statusMessages } from "./labels";
import { RefundDialog } from "./refund-dialog";

const messages = defineMessages({
  loading: { id: "seller.order.loading", defaultMessage: "Loading the order…" },
  loadingRefunds: { id: "seller.order.loadingRefunds", defaultMessage: "Loading the refunds…" },
  title: defineMessage<{ number: string }>({ id: "seller.order.title", defaultMessage: "Order {number}" }),
  placed: defineMessage<{ date: string }>({ id: "seller.order.placed", defaultMessage: "Placed on {date}" }),
  back: { id: "seller.order.back", defaultMessage: "All orders" },
  summary: { id: "seller.order.summary", defaultMessage: "Summary" },
  status: { id: "seller.order.status", defaultMessage: "Status" },
  customer: { id: "seller.order.customer", defaultMessage: "Customer" },
  reason: { id: "seller.order.reason", defaultMessage: "Billing reason" },
  product: { id: "seller.order.product", defaultMessage: "Product" },
  items: { id: "seller.order.items", defaultMessage: "Items" },
  item: { id: "seller.order.item", defaultMessage: "Item" },
  amount: { id: "seller.order.amount", defaultMessage: "Amount" },
  amounts: { id: "seller.order.amounts", defaultMessage: "Amounts" },
  subtotal: { id: "seller.order.subtotal", defaultMessage: "Subtotal" },
  discount: { id: "seller.order.discount", defaultMessage: "Discount" },
  tax: { id: "seller.order.tax", defaultMessage: "Tax" },
  total: { id: "seller.order.total", defaultMessage: "Total" },
  refunded: { id: "seller.order.refunded", defaultMessage: "Refunded" },
  left: { id: "seller.order.left", defaultMessage: "Left to refund, before tax" },
  refunds: { id: "seller.order.refunds", defaultMessage: "Refunds" },
  noRefunds: { id: "seller.order.noRefunds", defaultMessage: "Nothing has been refunded." },
  refundLine: defineMessage<{ amount: string; date: string; reason: string }>({ id: "seller.order.refundLine", defaultMessage: "{amount} on {date}: {reason}" }),
  benefitsRevoked: { id: "seller.order.benefitsRevoked", defaultMessage: "Benefits revoked" },
  receipt: { id: "seller.order.receipt", defaultMessage: "Receipt" },
  invoice: { id: "seller.order.invoice", defaultMessage: "Invoice" },
  creditNote: defineMessage<{ number: string }>({ id: "seller.order.creditNote", defaultMessage: "Credit note {number}" }),
  needsDetails: {
    id: "seller.order.needsDetails",
    defaultMessage: "An invoice needs the buyer's billing name and address: they save them in their portal, or you set them through the API first.",
  },
});

/** The order's receipt, invoice and credit notes as PDFs (once its money arrived), and its refund. */
function OrderActions({ order }: { order: Order }) {
  const { formatMessage } = useIntl();
  const creditNotes = useQuery({ ...creditNotesQuery(order.id), enabled: order.paid && order.refunded_amount > 0 });
  return (
    <>
      {order.paid && (
        <DocumentButtons
          documents={[
            { label: formatMessage(messages.receipt), urlOf: () => orderDocumentUrl(order.id, "receipt") },
            { label: formatMessage(messages.invoice), urlOf: () => orderDocumentUrl(order.id, "invoice") },
            ...(creditNotes.data ?? []).map((note) => ({ label: formatMessage(messages.creditNote, { number: note.number }), urlOf: () => creditNoteUrl(order.id, note.refund_id) })),
          ]}
          failureOf={(reason) => (failureOf(reason).status === 422 ? formatMessage(messages.needsDetails) : describeFailure(reason))}
        />
      )}
      <RefundDialog order={order} />
    </>
  );
}

/** An order: what was bought, by whom and why, its amounts and refunds, and the refund dialog. */
export function OrderScreen() {
  const { formatMessage } = useIntl();
  const { orderId } = useParams({ strict: false });
  const order = useQuery(orderQuery(orderId ?? ""));
  return (
    <QueryState query={order} loading={messages.loading}>
      {(shown) => (
        <Page title={formatMessage(messages.title, { number: shown.invoice_number ?? formatMessage(statusMessages.draft) })} description={formatMessage(messages.placed, { date: longDateTime(shown.created_at) })} actions={<OrderActions order={shown} />}>
          <OrderSummary order={shown} />
          <OrderAnswers order={shown} />
          <OrderAmounts order={shown} />
          <OrderPayments order={shown} />
          <OrderRefunds order={shown} />
          <OrderDisputes order={shown} />
        </Page>
      )}
    </QueryState>
  );
}

function OrderSummary({ order }: { order: Order }) {
  const { formatMessage } = useIntl();
  const { slug } = useSeller();
  return (
    <Card title={formatMessage(messages.summary)}>
      <Facts
        rows={[
          [formatMessage(messages.status), formatMessage(statusMessages[order.status])],
          [
            formatMessage(messages.customer),
            <Link key="customer" to="/$slug/customers/$customerId" params={{ slug, customerId: order.customer_id }}>
              {order.customer.name ? `${order.customer.name} (${order.customer.email})` : order.customer.email}
            </Link>,
          ],
          [formatMessage(messages.reason), formatMessage(billingReasonMessages[order.billing_reason])],
          ...(order.product ? [[formatMessage(messages.product), order.product.name] as [string, string]] : []),
        ]}
      />
      <h3>{formatMessage(messages.items)}</h3>
      <div className="table-wrap">
        <table>
          <thead>
            <tr>
              <th>{formatMessage(messages.item)}</th>
              <th>{formatMessage(messages.amount)}</th>
            </tr>
          </thead>
          <tbody>
            {order.items.map((item) => (
              <tr key={item.id}>
                <td>{item.label}</td>
                <td className="nowrap">{money(item.amount, order.currency)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <p>
        <Link to="/$slug/orders" params={{ slug }}>
          {formatMessage(messages.back)}
        </Link>
      </p>
    </Card>
  );
}

function OrderAmounts({ order }: { order: Order }) {
  const { formatMessage } = useIntl();
  const amount = (value: number) => money(value, order.currency);
  const rows: [string, string][] = [
    [formatMessage(messages.subtotal), amount(order.subtotal_amount)],
    [formatMessage(messages.discount), amount(-order.discount_amount)],
    [formatMessage(messages.tax), amount(order.tax_amount)],
    [formatMessage(messages.total), amount(order.total_amount)],
    [formatMessage(messages.refunded), amount(order.refunded_amount + order.refunded_tax_amount)],
    [formatMessage(messages.left), amount(refundableOf(order))],
  ];
  return (
    <Card title={formatMessage(messages.amounts)}>
      <Facts rows={rows} />
    </Card>
  );
}

function OrderRefunds({ order }: { order: Order }) {
  const { formatMessage } = useIntl();
  const refunds = useQuery(refundsQuery(order.id));
  return (
    <Card title={formatMessage(messages.refunds)}>
      <QueryState query={refunds} loading={messages.loadingRefunds} isEmpty={(listing) => listing.items.length === 0} empty={<p className="muted">{formatMessage(messages.noRefunds)}</p>}>
        {(listing) => (
          <ul className="list-plain">
            {listing.items.map((refund) => (
              <li key={refund.id}>
                <FormattedMessage {...messages.refundLine} values={{ amount: money(refund.amount + refund.tax_amount, refund.currency), date: longDate(refund.created_at), reason: formatMessage(refundReasonMessages[refund.reason]) }} />
                {refund.revoke_benefits && <span className="badge">{formatMessage(messages.benefitsRevoked)}</span>}
              </li>
            ))}
          </ul>
        )}
      </QueryState>
    </Card>
  );
}
