import { Link } from "@tanstack/react-router";
import type { ReactNode } from "react";
import { defineMessages, useIntl } from "react-intl";
import { Alert, Loading, Page } from "../ui/components";
import { useFullOrganization, type FullOrganization } from "./queries";

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
  if (organization.isPending) return <Loading message={messages.loading} />;
  if (organization.error || !organization.data) {
    return (
      <Page title={formatMessage(messages.notFoundTitle)}>
        <Alert tone="error">{organization.error?.message ?? formatMessage(messages.notFound)}</Alert>
        <Link to="/">{formatMessage(messages.backHome)}</Link>
      </Page>
    );
  }
  return <>{children(organization.data)}</>;
}
