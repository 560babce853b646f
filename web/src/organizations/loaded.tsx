import { Link } from "@tanstack/react-router";
import type { ReactNode } from "react";
import { defineMessages, useIntl } from "react-intl";
import { Alert, Page } from "../ui/components";
import { QueryState } from "../ui/query-state";
import { useFullOrganization, type FullOrganization } from "./queries";
import { isTwoFactorRefusal, TwoFactorRequiredScreen } from "./two-factor";

const messages = defineMessages({
  loading: { id: "organizations.page.loading", defaultMessage: "Loading the organization…" },
  notFoundTitle: { id: "organizations.page.notFoundTitle", defaultMessage: "Organization not found" },
  notFound: { id: "organizations.page.notFound", defaultMessage: "There is no organization at this address, or you are not a member." },
  backHome: { id: "organizations.page.backHome", defaultMessage: "Back to your organizations" },
});

/** The organization at `slug`, once loaded, for a screen about it; loading, or a page saying it is not there. */
export function WithOrganization({ slug, children }: { slug: string; children: (organization: FullOrganization) => ReactNode }) {
  const { formatMessage } = useIntl();
  const organization = useFullOrganization(slug);
  const notFound = (said: ReactNode) => (
    <Page title={formatMessage(messages.notFoundTitle)}>
      {said}
      <Link to="/">{formatMessage(messages.backHome)}</Link>
    </Page>
  );
  return (
    <QueryState
      query={organization}
      loading={messages.loading}
      // An organization that requires two-factor of a member without it says so, and what to do.
      framed={(alert, error) => (isTwoFactorRefusal(error) ? <TwoFactorRequiredScreen slug={slug} /> : notFound(alert))}
      isEmpty={(found) => found === null}
      empty={notFound(<Alert tone="error">{formatMessage(messages.notFound)}</Alert>)}
    >
      {(found) => found && children(found)}
    </QueryState>
  );
}
