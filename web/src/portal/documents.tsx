import { defineMessages, useIntl } from "react-intl";
import { failureOf } from "../api/client";
import type { CustomerOrderReceipt } from "../api/wire";
import { DocumentButtons } from "../ui/document-buttons";
import { portalRequest, type Order, type PortalAccess } from "./api";
import { failureText } from "./failures";

const messages = defineMessages({
  receipt: { id: "portal.documents.receipt", defaultMessage: "Receipt" },
  invoice: { id: "portal.documents.invoice", defaultMessage: "Invoice" },
  needsDetails: { id: "portal.documents.needsDetails", defaultMessage: "An invoice carries your billing name and address: save them under Billing details first." },
});

/** An order's receipt and invoice as PDFs (the invoice made first, from the billing details the customer saved). */
export function OrderDocuments({ access, order }: { access: PortalAccess; order: Order }) {
  const { formatMessage } = useIntl();
  // Only an order whose money arrived has a receipt, and may have an invoice.
  if (!order.paid) return null;
  const path = `orders/${encodeURIComponent(order.id)}`;
  const urlOf = async (kind: "receipt" | "invoice") => (await portalRequest<CustomerOrderReceipt>(access, `${path}/${kind}`)).url;
  return (
    <div className="row">
      <DocumentButtons
        documents={[
          { label: formatMessage(messages.receipt), urlOf: () => urlOf("receipt") },
          { label: formatMessage(messages.invoice), urlOf: async () => (await portalRequest<null>(access, `${path}/invoice`, { method: "POST" }), urlOf("invoice")) },
        ]}
        failureOf={(reason) => (failureOf(reason).status === 422 ? formatMessage(messages.needsDetails) : failureText(reason))}
      />
    </div>
  );
}
