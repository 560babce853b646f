import { useQuery } from "@tanstack/react-query";
import { Link, useSearch } from "@tanstack/react-router";
import { defineMessages, useIntl } from "react-intl";
import { Page } from "../../ui/components";
import { QueryState } from "../../ui/query-state";
import { useSeller } from "../space";
import { CustomerMailForm } from "./customer-mail-form";
import { OrganizationSection } from "./organization-sections";
import { ProfileForm } from "./profile-form";
import { sellerOrganizationQuery } from "./queries";
import { SubscriptionSettingsForm } from "./subscription-settings-form";
import { SETTINGS_TABS, settingsTabNames } from "./tabs";
import { TaxSettingsSection } from "./tax-settings-form";

const messages = defineMessages({
  title: { id: "seller.settings.title", defaultMessage: "Settings" },
  description: { id: "seller.settings.description", defaultMessage: "What buyers see of you, how your subscriptions behave, where you charge tax, and what your customers are mailed." },
  loading: { id: "seller.settings.loading", defaultMessage: "Loading your settings…" },
  sections: { id: "seller.settings.sections", defaultMessage: "Settings sections" },
});

/**
 * Every setting of the seller's organization, one section at a time: selling (profile, subscriptions,
 * tax, mail to customers, saved to Polar's organization and Tollgate's tax settings), and the
 * organization's own name, members and teams.
 */
export function SettingsScreen() {
  const { formatMessage } = useIntl();
  const seller = useSeller();
  const { tab = "selling" } = useSearch({ from: "/$slug/settings" });
  return (
    <Page title={formatMessage(messages.title)} description={formatMessage(messages.description)}>
      {/* The address without a section shows selling's, which its tab then says is current. */}
      <nav className="tabs" aria-label={formatMessage(messages.sections)}>
        {SETTINGS_TABS.map((name) => (
          <Link key={name} to="/$slug/settings" params={{ slug: seller.slug }} search={{ tab: name }} activeOptions={{ includeSearch: true }} inactiveProps={name === tab ? { "aria-current": "page" } : undefined}>
            {formatMessage(settingsTabNames[name])}
          </Link>
        ))}
      </nav>
      {tab === "selling" ? <SellingSettings /> : <OrganizationSection tab={tab} />}
    </Page>
  );
}

function SellingSettings() {
  const seller = useSeller();
  const organization = useQuery(sellerOrganizationQuery(seller.id));
  return (
    <>
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
    </>
  );
}
