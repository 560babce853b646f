import { useQuery } from "@tanstack/react-query";
import { defineMessages, useIntl } from "react-intl";
import { Page } from "../../ui/components";
import { QueryState } from "../../ui/query-state";
import { useSeller } from "../space";
import { CustomerMailForm } from "./customer-mail-form";
import { ProfileForm } from "./profile-form";
import { sellerOrganizationQuery } from "./queries";
import { SubscriptionSettingsForm } from "./subscription-settings-form";
import { TaxSettingsSection } from "./tax-settings-form";

const messages = defineMessages({
  title: { id: "seller.settings.title", defaultMessage: "Settings" },
  description: { id: "seller.settings.description", defaultMessage: "What buyers see of you, how your subscriptions behave, where you charge tax, and what your customers are mailed." },
  loading: { id: "seller.settings.loading", defaultMessage: "Loading your settings…" },
});

/** The seller's profile, subscription settings, tax and mail to customers, read from and saved to Polar's organization (and Tollgate's tax settings). */
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
            <TaxSettingsSection />
            <CustomerMailForm organization={loaded} />
          </div>
        )}
      </QueryState>
    </Page>
  );
}
