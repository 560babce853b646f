import { useQuery } from "@tanstack/react-query";
import { defineMessages, useIntl } from "react-intl";
import { describeError } from "../../api/client";
import { Alert, Loading, Page } from "../../ui/components";
import { useSeller } from "../space";
import { ProfileForm } from "./profile-form";
import { getOrganization, organizationQueryKey } from "./settings-api";
import { SubscriptionSettingsForm } from "./subscription-settings-form";

const messages = defineMessages({
  title: { id: "seller.settings.title", defaultMessage: "Settings" },
  description: { id: "seller.settings.description", defaultMessage: "What buyers see of you, and how your subscriptions behave." },
  loading: { id: "seller.settings.loading", defaultMessage: "Loading your settings…" },
});

/** The seller's profile and subscription settings, read from and saved to Polar's organization. */
export function SettingsScreen() {
  const { formatMessage } = useIntl();
  const seller = useSeller();
  const organization = useQuery({ queryKey: organizationQueryKey(seller.id), queryFn: () => getOrganization(seller.id) });
  return (
    <Page title={formatMessage(messages.title)} description={formatMessage(messages.description)}>
      {seller.readOnlyReason && <p className="muted">{seller.readOnlyReason}</p>}
      {organization.isPending ? (
        <Loading message={messages.loading} />
      ) : organization.data?.data ? (
        <div className="stack">
          <ProfileForm organization={organization.data.data} />
          <SubscriptionSettingsForm organization={organization.data.data} />
        </div>
      ) : (
        organization.data?.error && <Alert tone="error">{describeError(organization.data.error)}</Alert>
      )}
    </Page>
  );
}
