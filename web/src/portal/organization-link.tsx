import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { defineMessage, defineMessages, useIntl } from "react-intl";
import type { OrganizationLink } from "../api/wire";
import { Alert, Button, Card } from "../ui/components";
import { LinkSummary } from "../ui/linked-members";
import { QueryState } from "../ui/query-state";
import type { PortalAccess } from "./api";
import { failureText } from "./failures";
import { portalQuery, useOrganizationConsent } from "./queries";

const messages = defineMessages({
  title: { id: "portal.organizationLink.title", defaultMessage: "Seats for your organization" },
  text: defineMessage<{ seller: string }>({ id: "portal.organizationLink.text", defaultMessage: "{seller} can give your team's seats to the members of your own Tollgate organization as they join, and take a seat back when someone leaves. Their names and e-mail addresses are then shared with {seller}." }),
  choose: { id: "portal.organizationLink.choose", defaultMessage: "Choose an organization" },
  loading: { id: "portal.organizationLink.loading", defaultMessage: "Loading the organization link…" },
});

/** Where the seller asked for it, the team's owner consents to seats following one of their Tollgate organizations, and sees who holds them. */
export function OrganizationLinkCard({ access }: { access: PortalAccess }) {
  const { formatMessage } = useIntl();
  const link = useQuery({ ...portalQuery<OrganizationLink>(access, "organization-link"), retry: false });
  const consent = useOrganizationConsent(access);
  const [failure, setFailure] = useState<string | null>(null);
  const goToConsent = async () => {
    setFailure(null);
    try {
      // The consent page is this app's own: followed here, on the origin whose Tollgate session the owner has.
      window.location.assign(new URL((await consent.mutateAsync()).url).pathname);
    } catch (reason) {
      setFailure(failureText(reason));
    }
  };
  return (
    // Nothing asked for (404): nothing to show.
    <QueryState query={link} loading={messages.loading} failure={(error) => (error.failure.status === 404 ? null : failureText(error))}>
      {(asked) => (
        <Card title={formatMessage(messages.title)} description={formatMessage(messages.text, { seller: access.seller.name })}>
          <LinkSummary link={asked} />
          {failure && <Alert tone="error">{failure}</Alert>}
          {!asked.organization && (
            <div className="actions">
              <Button busy={consent.isPending} onClick={() => void goToConsent()}>
                {formatMessage(messages.choose)}
              </Button>
            </div>
          )}
        </Card>
      )}
    </QueryState>
  );
}
