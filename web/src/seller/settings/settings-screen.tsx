import { useQuery } from "@tanstack/react-query";
import { defineMessages, useIntl } from "react-intl";
import { Page } from "../../ui/components";
import { QueryState } from "../../ui/query-state";
import { useSeller } from "../space";
import { CustomerMailForm } from "./customer-mail-form";
import { ProfileForm } from "./profile-form";
import { sellerOrganizationQuery } from "./queries";
import { SubscriptionSettingsForm } from "./subscription-settings-form";

const messages = defineMessages({
  title: { id: "seller.settings.title", defaultMessage: "Settings" },
  description: { id: "seller.settings.description", defaultMessage: "What buyers see of you, how your subscriptions behave, and what your customers are mailed." },
  loading: { id: "seller.settings.loading", defaultMessage: "Loading your settings…" },
});

/** The seller's profile, subscription settings and mail to customers, read from and saved to Polar's organization. */
export function SettingsScreen() {
  const { formatMessage } = useIntl();
  const seller = useSeller();
  const organization = useQuery(sellerOrganizationQuery(seller.id));
  return (
    <Page title={formatMessage(messages.title)} description={formatMessage(messages.description)}>
      {seller.readOnlyReason && <p className="muted">{seller.readOnlyReason}</p>}
      <QueryState query={organization} loading={messages.loading}>
        {(loaded) => (
          <div className="stack">
            <ProfileForm organization={loaded} />
            <SubscriptionSettingsForm organization={loaded} />
            <CustomerMailForm organization={loaded} />
          </div>
        )}
      </QueryState>
    </Page>
  );
}
