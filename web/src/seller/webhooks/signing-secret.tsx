import { outcomeOf } from "../../ui/outcome";
import { useState } from "react";
import { defineMessages, useIntl } from "react-intl";
import { Alert, Button, Card } from "../../ui/components";
import { ConfirmDialog } from "../../ui/confirm-dialog";
import type { WebhookEndpoint } from "./webhooks-api";
import { useRotateSecret } from "./queries";

const messages = defineMessages({
  title: { id: "seller.webhook.secret.title", defaultMessage: "Signing secret" },
  description: { id: "seller.webhook.secret.description", defaultMessage: "Your endpoint checks each request's signature with it (Standard Webhooks)." },
  reveal: { id: "seller.webhook.secret.reveal", defaultMessage: "Show the secret" },
  hide: { id: "seller.webhook.secret.hide", defaultMessage: "Hide the secret" },
  rotate: { id: "seller.webhook.secret.rotate", defaultMessage: "Rotate the secret" },
  rotateTitle: { id: "seller.webhook.secret.rotateTitle", defaultMessage: "Rotate the signing secret?" },
  rotateText: { id: "seller.webhook.secret.rotateText", defaultMessage: "Requests are signed with a new secret from now on; for a short while they carry the old signature too, so you can update your endpoint." },
  rotated: { id: "seller.webhook.secret.rotated", defaultMessage: "The secret was rotated." },
});

/** An endpoint's secret: hidden until asked for, and rotated on request. */
export function SigningSecret({ endpoint }: { endpoint: WebhookEndpoint }) {
  const { formatMessage } = useIntl();
  const rotation = useRotateSecret();
  const [shown, setShown] = useState(false);
  const [outcome, setOutcome] = useState<{ tone: "error" | "success"; text: string } | null>(null);
  const rotate = async () => {
    const result = await outcomeOf(rotation.mutateAsync(endpoint.id), formatMessage(messages.rotated));
    setOutcome(result);
    return result?.tone !== "error";
  };
  return (
    <Card title={formatMessage(messages.title)} description={formatMessage(messages.description)}>
      {shown && <code className="license-key secret">{endpoint.secret}</code>}
      <div className="actions">
        <Button variant="secondary" aria-expanded={shown} onClick={() => setShown(!shown)}>
          {formatMessage(shown ? messages.hide : messages.reveal)}
        </Button>
        <ConfirmDialog
          trigger={<Button variant="secondary">{formatMessage(messages.rotate)}</Button>}
          title={formatMessage(messages.rotateTitle)}
          description={formatMessage(messages.rotateText)}
          confirmLabel={formatMessage(messages.rotate)}
          onConfirm={rotate}
        />
      </div>
      {outcome && <Alert tone={outcome.tone}>{outcome.text}</Alert>}
    </Card>
  );
}
