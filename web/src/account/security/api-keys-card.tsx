import { defineMessages, useIntl } from "react-intl";
import { ApiKeyList } from "../../api-keys/api-key-list";
import { NewApiKeyForm } from "../../api-keys/new-api-key-form";
import { Card } from "../../ui/components";

const messages = defineMessages({
  title: { id: "account.apiKeys.title", defaultMessage: "API keys" },
  description: { id: "account.apiKeys.description", defaultMessage: "Scripts and tools act as you with a key, sent in the x-api-key header." },
});

const OWN_KEYS = {};

/** The user's own API keys: made here and shown once, listed, revoked. */
export function ApiKeysCard() {
  const { formatMessage } = useIntl();
  return (
    <Card title={formatMessage(messages.title)} description={formatMessage(messages.description)}>
      <div className="stack">
        <ApiKeyList owner={OWN_KEYS} mayRevoke />
        <NewApiKeyForm owner={OWN_KEYS} />
      </div>
    </Card>
  );
}
