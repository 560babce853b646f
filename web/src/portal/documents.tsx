import { useQuery } from "@tanstack/react-query";
import { defineMessage, defineMessages, useIntl } from "react-intl";
import { failureOf } from "../api/client";
import type { CustomerOrderReceipt, OrderCreditNote } from "../api/wire";
import { DocumentButtons } from "../ui/document-buttons";
import { portalRequest, type Order, type PortalAccess } from "./api";
import { failureText } from "./failures";
import { portalQuery } from "./queries";

const messages = defineMessages({
  receipt: { id: "portal.documents.receipt", defaultMessage: "Receipt" },
  invoice: { id: "portal.documents.invoice", defaultMessage: "Invoice" },
  creditNote: defineMessage<{ number: string }>({ id: "portal.documents.creditNote", defaultMessage: "Credit note {number}" }),
  needsDetails: { id: "portal.documents.needsDetails", defaultMessage: "An invoice carries your billing name and address: save them under Billing details first." },
});

/**
 * An order's receipt and invoice as PDFs (the invoice made first, from the billing details the
 * customer saved), and a credit note for each refund of it once it was invoiced.
 */
export function OrderDocuments({ access, order }: { access: PortalAccess; order: Order }) {
  const { formatMessage } = useIntl();
  const path = `orders/${encodeURIComponent(order.id)}`;
  const creditNotes = useQuery({ ...portalQuery<OrderCreditNote[]>(access, `${path}/credit-notes`), enabled: order.paid && order.refunded_amount > 0 });
  // Only an order whose money arrived has a receipt, and may have an invoice.
  if (!order.paid) return null;
  const urlOf = async (kind: "receipt" | "invoice") => (await portalRequest<CustomerOrderReceipt>(access, `${path}/${kind}`)).url;
  // Links last an hour: each is asked for again when pressed.
  const creditNoteUrl = async (refundId: string) => {
    const note = (await portalRequest<OrderCreditNote[]>(access, `${path}/credit-notes`)).find((candidate) => candidate.refund_id === refundId);
    if (!note) throw new Error(`no credit note for refund ${refundId}`);
    return note.url;
  };
  return (
    <div className="row">
      <DocumentButtons
        documents={[
          { label: formatMessage(messages.receipt), urlOf: () => urlOf("receipt") },
          { label: formatMessage(messages.invoice), urlOf: async () => (await portalRequest<null>(access, `${path}/invoice`, { method: "POST" }), urlOf("invoice")) },
          ...(creditNotes.data ?? []).map((note) => ({ label: formatMessage(messages.creditNote, { number: note.number }), urlOf: () => creditNoteUrl(note.refund_id) })),
        ]}
        failureOf={(reason) => (failureOf(reason).status === 422 ? formatMessage(messages.needsDetails) : failureText(reason))}
      />
    </div>
  );
}
