import { useQuery } from "@tanstack/react-query";
import { useNavigate, useParams } from "@tanstack/react-router";
import { useState } from "react";
import { defineMessage, defineMessages, useIntl } from "react-intl";
import { describeFailure } from "../../api/client";
import { QueryState } from "../../ui/query-state";
import { longDate } from "../../i18n/format";
import { Alert, Button, Card, Page } from "../../ui/components";
import { ConfirmDialog } from "../../ui/confirm-dialog";
import { Facts } from "../../ui/facts";
import { CustomerMetersCard } from "../meters/usage-cards";
import { OrdersTable } from "../orders/orders-table";
import { useSeller } from "../space";
import { openCustomerSession, type CustomerState } from "./api";
import { customerStateQuery, useDeleteCustomer } from "./queries";
import { CustomerDialog } from "./customer-dialog";
import { CustomerStateCard } from "./state-card";
import { OrganizationLinkCard, TeamMembersCard, TeamSeatsCard } from "./team-cards";

const messages = defineMessages({
  loading: { id: "seller.customer.loading", defaultMessage: "Loading the customer…" },
  since: defineMessage<{ date: string }>({ id: "seller.customer.since", defaultMessage: "Customer since {date}" }),
  details: { id: "seller.customer.details", defaultMessage: "Details" },
  email: { id: "seller.customer.email", defaultMessage: "E-mail" },
  name: { id: "seller.customer.name", defaultMessage: "Name" },
  externalId: { id: "seller.customer.externalId", defaultMessage: "External id" },
  address: { id: "seller.customer.address", defaultMessage: "Billing address" },
  type: { id: "seller.customer.type", defaultMessage: "Type" },
  typeName: defineMessage<{ type: string }>({ id: "seller.customer.typeName", defaultMessage: "{type, select, team {A team} other {One person}}" }),
  none: { id: "seller.customer.none", defaultMessage: "None" },
  orders: { id: "seller.customer.orders", defaultMessage: "Orders" },
  edit: { id: "seller.customer.edit", defaultMessage: "Edit" },
  portal: { id: "seller.customer.portal", defaultMessage: "Open their portal" },
  delete: { id: "seller.customer.delete", defaultMessage: "Delete" },
  deleteTitle: defineMessage<{ email: string }>({ id: "seller.customer.deleteTitle", defaultMessage: "Delete {email}?" }),
  deleteText: { id: "seller.customer.deleteText", defaultMessage: "They can no longer open their portal, and a new purchase with this e-mail makes a new customer. Their orders stay." },
});

/** A customer: who they are, what they have now, their orders; open their portal, edit or delete them. */
export function CustomerScreen() {
  const { customerId = "" } = useParams({ strict: false });
  const state = useQuery(customerStateQuery(customerId));
  return (
    <QueryState query={state} loading={messages.loading}>
      {(customer) => <CustomerPage customer={customer} />}
    </QueryState>
  );
}

function CustomerPage({ customer }: { customer: CustomerState }) {
  const { formatMessage } = useIntl();
  return (
    <Page title={customer.name ?? customer.email ?? ""} description={formatMessage(messages.since, { date: longDate(customer.created_at) })} actions={<CustomerActions customer={customer} />}>
      <div className="stack">
        <Card title={formatMessage(messages.details)}>
          <Facts
            rows={[
              [formatMessage(messages.type), formatMessage(messages.typeName, { type: customer.type })],
              [formatMessage(messages.email), customer.email ?? formatMessage(messages.none)],
              [formatMessage(messages.name), customer.name ?? formatMessage(messages.none)],
              [formatMessage(messages.externalId), customer.external_id ?? formatMessage(messages.none)],
              [formatMessage(messages.address), addressText(customer) ?? formatMessage(messages.none)],
            ]}
          />
        </Card>
        {customer.type === "team" && (
          <>
            <TeamMembersCard customerId={customer.id} />
            <TeamSeatsCard customerId={customer.id} />
            <OrganizationLinkCard customerId={customer.id} />
          </>
        )}
        <CustomerStateCard state={customer} />
        <CustomerMetersCard customerId={customer.id} />
        <Card title={formatMessage(messages.orders)}>
          <OrdersTable filters={{ customerId: customer.id }} />
        </Card>
      </div>
    </Page>
  );
}

const addressText = ({ billing_address: address }: CustomerState) =>
  address && [address.line1, address.line2, [address.postal_code, address.city].filter(Boolean).join(" "), address.state, address.country].filter(Boolean).join(", ");

function CustomerActions({ customer }: { customer: CustomerState }) {
  const { formatMessage } = useIntl();
  const seller = useSeller();
  const navigate = useNavigate();
  const deletion = useDeleteCustomer();
  const [failure, setFailure] = useState<string | null>(null);
  const [opening, setOpening] = useState(false);
  // The tab is opened at the click, so that the browser allows it, and sent to the portal once the session exists.
  const openPortal = async () => {
    setFailure(null);
    setOpening(true);
    const tab = window.open("", "_blank");
    try {
      const session = await openCustomerSession(customer.id);
      if (tab) {
        tab.opener = null;
        tab.location.href = session.customer_portal_url;
      }
    } catch (reason) {
      tab?.close();
      setFailure(describeFailure(reason));
    } finally {
      setOpening(false);
    }
  };
  const remove = async () => {
    try {
      await deletion.mutateAsync(customer.id);
    } catch (reason) {
      setFailure(describeFailure(reason));
      return false;
    }
    await navigate({ to: "/$slug/customers", params: { slug: seller.slug } });
    return true;
  };
  if (!seller.mayChange) return null;
  return (
    <>
      <Button variant="secondary" busy={opening} onClick={() => void openPortal()}>
        {formatMessage(messages.portal)}
      </Button>
      <CustomerDialog customer={customer} trigger={<Button variant="secondary">{formatMessage(messages.edit)}</Button>} />
      <ConfirmDialog
        trigger={<Button variant="danger">{formatMessage(messages.delete)}</Button>}
        title={formatMessage(messages.deleteTitle, { email: customer.email ?? customer.name ?? "" })}
        description={formatMessage(messages.deleteText)}
        confirmLabel={formatMessage(messages.delete)}
        onConfirm={remove}
      />
      {failure && <Alert tone="error">{failure}</Alert>}
    </>
  );
}
