import { defineMessages, useIntl } from "react-intl";
import { ApiKeyList } from "../../api-keys/api-key-list";
import { NewApiKeyForm } from "../../api-keys/new-api-key-form";
import { Card, Page } from "../../ui/components";
import { useSeller } from "../space";

const messages = defineMessages({
  title: { id: "seller.apiKeys.title", defaultMessage: "API keys" },
  description: {
    id: "seller.apiKeys.description",
    defaultMessage: "A key acts for the organization, not for you, in the x-api-key header; access tokens are for the billing API.",
  },
  newTitle: { id: "seller.apiKeys.new.title", defaultMessage: "New API key" },
});

/** The organization's API keys: owners and admins make and revoke them; the list is theirs to see. */
export function ApiKeysScreen() {
  const { formatMessage } = useIntl();
  const seller = useSeller();
  const owner = { organizationId: seller.id };
  return (
    <Page title={formatMessage(messages.title)} description={formatMessage(messages.description)}>
      <div className="stack">
        {seller.readOnlyReason ? (
          <p className="muted">{seller.readOnlyReason}</p>
        ) : (
          <Card title={formatMessage(messages.newTitle)}>
            <NewApiKeyForm owner={owner} />
          </Card>
        )}
        <ApiKeyList owner={owner} mayRevoke={seller.mayChange} />
      </div>
    </Page>
  );
}
