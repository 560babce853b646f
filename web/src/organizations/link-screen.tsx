import { useQuery } from "@tanstack/react-query";
import { useParams } from "@tanstack/react-router";
import { useState } from "react";
import { defineMessage, defineMessages, useIntl } from "react-intl";
import { describeFailure } from "../api/client";
import type { OrganizationLink, OrganizationLinkInvitation } from "../api/wire";
import { RequireSession } from "../shell";
import { Alert, Button, Page } from "../ui/components";
import { LinkSummary } from "../ui/linked-members";
import { QueryState } from "../ui/query-state";
import { linkInvitationQuery, useConsentToLink } from "./queries";

const messages = defineMessages({
  title: { id: "organizationLink.title", defaultMessage: "Give your team's seats to an organization" },
  loading: { id: "organizationLink.loading", defaultMessage: "Loading the request…" },
  missing: { id: "organizationLink.missing", defaultMessage: "This link has expired or was used already. Open it again from the customer portal." },
  asks: defineMessage<{ seller: string; customer: string }>({ id: "organizationLink.asks", defaultMessage: "{seller} asks whether the seats of {customer} should follow the members of one of your organizations: whoever joins it takes a free seat, whoever leaves gives theirs back. Their names and e-mail addresses are then shared with {seller}." }),
  pick: { id: "organizationLink.pick", defaultMessage: "Organization" },
  none: { id: "organizationLink.none", defaultMessage: "You own no organization. Only an owner of an organization can link it; create one or ask its owner to open this link." },
  link: { id: "organizationLink.link", defaultMessage: "Link this organization" },
  done: { id: "organizationLink.done", defaultMessage: "Linked. The seats now follow the organization's members." },
});

/** The consent page a team's owner reaches from the customer portal: signed in to Tollgate, they pick one of the organizations they own. */
export function OrganizationLinkScreen() {
  const { token } = useParams({ strict: false });
  return <RequireSession>{() => <LinkConsent token={token ?? ""} />}</RequireSession>;
}

function LinkConsent({ token }: { token: string }) {
  const { formatMessage } = useIntl();
  const [linked, setLinked] = useState<OrganizationLink | null>(null);
  // Not read again once linked: the link is used up then, and what it linked is shown instead.
  const invitation = useQuery({ ...linkInvitationQuery(token), enabled: linked === null });
  const title = formatMessage(messages.title);
  if (linked)
    return (
      <Page title={title}>
        <Alert tone="success">{formatMessage(messages.done)}</Alert>
        <LinkSummary link={linked} />
      </Page>
    );
  return (
    <QueryState
      query={invitation}
      loading={messages.loading}
      failure={() => formatMessage(messages.missing)}
      framed={(said) => <Page title={title}>{said}</Page>}
    >
      {(invitation) => <Consent token={token} invitation={invitation} onLinked={setLinked} />}
    </QueryState>
  );
}

function Consent({ token, invitation, onLinked }: { token: string; invitation: OrganizationLinkInvitation; onLinked: (link: OrganizationLink) => void }) {
  const { formatMessage } = useIntl();
  const consent = useConsentToLink(token);
  const [chosen, setChosen] = useState(invitation.organizations[0]?.id ?? "");
  const [failure, setFailure] = useState<string | null>(null);
  const seller = invitation.seller.name;
  const link = async () => {
    setFailure(null);
    try {
      onLinked(await consent.mutateAsync(chosen));
    } catch (reason) {
      setFailure(describeFailure(reason));
    }
  };
  return (
    <Page title={formatMessage(messages.title)} description={formatMessage(messages.asks, { seller, customer: invitation.customer.name ?? invitation.customer.email })}>
      {failure && <Alert tone="error">{failure}</Alert>}
      {invitation.organizations.length === 0 ? (
        <Alert tone="info">{formatMessage(messages.none)}</Alert>
      ) : (
        <form
          className="stack"
          onSubmit={(event) => {
            event.preventDefault();
            void link();
          }}
        >
          <fieldset>
            <legend>{formatMessage(messages.pick)}</legend>
            {invitation.organizations.map((organization) => (
              <label key={organization.id} className="checkbox">
                <input type="radio" name="organization" value={organization.id} checked={chosen === organization.id} onChange={() => setChosen(organization.id)} /> {organization.name}
              </label>
            ))}
          </fieldset>
          <div className="actions">
            <Button type="submit" busy={consent.isPending} disabled={!chosen}>
              {formatMessage(messages.link)}
            </Button>
          </div>
        </form>
      )}
    </Page>
  );
}
