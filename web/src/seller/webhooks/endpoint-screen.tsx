import { useQuery } from "@tanstack/react-query";
import { Link, useNavigate, useParams } from "@tanstack/react-router";
import { useState } from "react";
import { defineMessage, defineMessages, useIntl } from "react-intl";
import { describeFailure, failureIn } from "../../api/client";
import { Alert, Button, Card, Page } from "../../ui/components";
import { QueryState } from "../../ui/query-state";
import { ConfirmDialog } from "../../ui/confirm-dialog";
import { useSeller } from "../space";
import { DeliveryLog } from "./delivery-log";
import { EnabledBadge } from "./enabled-badge";
import { EndpointForm } from "./endpoint-form";
import { SigningSecret } from "./signing-secret";
import type { WebhookEndpoint } from "./webhooks-api";
import { endpointQuery, useDeleteEndpoint, useSwitchEndpoint, useUpdateEndpoint } from "./queries";

const messages = defineMessages({
  loading: { id: "seller.webhook.loading", defaultMessage: "Loading the endpoint…" },
  back: { id: "seller.webhook.back", defaultMessage: "All endpoints" },
  settings: { id: "seller.webhook.settings", defaultMessage: "Settings" },
  save: { id: "seller.webhook.save", defaultMessage: "Save changes" },
  saved: { id: "seller.webhook.saved", defaultMessage: "Changes saved." },
  enable: { id: "seller.webhook.enable", defaultMessage: "Enable" },
  disable: { id: "seller.webhook.disable", defaultMessage: "Disable" },
  delete: { id: "seller.webhook.delete", defaultMessage: "Delete" },
  deleteTitle: { id: "seller.webhook.deleteTitle", defaultMessage: "Delete this endpoint?" },
  deleteText: defineMessage<{ url: string }>({ id: "seller.webhook.deleteText", defaultMessage: "Events waiting for it are dropped, and no more are sent to {url}." }),
});

/** One webhook endpoint: its settings, on or off, its signing secret, and what was delivered to it. */
export function WebhookEndpointScreen() {
  const { endpointId = "" } = useParams({ strict: false });
  const endpoint = useQuery(endpointQuery(endpointId));
  return (
    <QueryState query={endpoint} loading={messages.loading}>
      {(loaded) => <EndpointDetails endpoint={loaded} />}
    </QueryState>
  );
}

function EndpointDetails({ endpoint }: { endpoint: WebhookEndpoint }) {
  const { formatMessage } = useIntl();
  const seller = useSeller();
  const navigate = useNavigate();
  const update = useUpdateEndpoint();
  const switchOver = useSwitchEndpoint();
  const deletion = useDeleteEndpoint();
  const [failure, setFailure] = useState<string | null>(null);
  const [switching, setSwitching] = useState(false);

  const toggle = async () => {
    setSwitching(true);
    setFailure(await failureIn(switchOver.mutateAsync({ id: endpoint.id, enabled: !endpoint.enabled })));
    setSwitching(false);
  };
  const remove = async () => {
    try {
      await deletion.mutateAsync(endpoint.id);
    } catch (reason) {
      setFailure(describeFailure(reason));
      return false;
    }
    await navigate({ to: "/$slug/webhooks", params: { slug: seller.slug } });
    return true;
  };
  const actions = seller.mayChange && (
    <>
      <Button variant="secondary" busy={switching} onClick={() => void toggle()}>
        {formatMessage(endpoint.enabled ? messages.disable : messages.enable)}
      </Button>
      <ConfirmDialog
        trigger={<Button variant="danger">{formatMessage(messages.delete)}</Button>}
        title={formatMessage(messages.deleteTitle)}
        description={formatMessage(messages.deleteText, { url: endpoint.url })}
        confirmLabel={formatMessage(messages.delete)}
        onConfirm={remove}
      />
    </>
  );
  return (
    <Page
      title={endpoint.url}
      description={
        <>
          <Link to="/$slug/webhooks" params={{ slug: seller.slug }}>
            {formatMessage(messages.back)}
          </Link>
          <EnabledBadge enabled={endpoint.enabled} />
        </>
      }
      actions={actions}
    >
      {seller.readOnlyReason && <p className="muted">{seller.readOnlyReason}</p>}
      {failure && <Alert tone="error">{failure}</Alert>}
      {seller.mayChange && (
        <>
          <SigningSecret endpoint={endpoint} />
          <Card title={formatMessage(messages.settings)}>
            <EndpointForm
              key={endpoint.id}
              endpoint={endpoint}
              submitLabel={formatMessage(messages.save)}
              savedText={formatMessage(messages.saved)}
              onSave={(values) => update.mutateAsync({ id: endpoint.id, change: values })}
            />
          </Card>
        </>
      )}
      <DeliveryLog endpointId={endpoint.id} maySend={seller.mayChange} />
    </Page>
  );
}
