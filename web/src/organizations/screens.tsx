import { failureIn } from "../api/client";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { Link, useNavigate, useParams } from "@tanstack/react-router";
import { useState, type ReactNode } from "react";
import { defineMessage, defineMessages, useIntl } from "react-intl";
import { authClient, viaAuth, type Session } from "../api/auth-client";
import { TestClockCard } from "../billing/test-clock";
import { RequireSession } from "../shell";
import { Alert, Button, Page } from "../ui/components";
import { QueryState } from "../ui/query-state";
import { InvitationsCard, MembersCard } from "./members";
import { WithOrganization } from "./loaded";
import { useRoleName } from "./organization";
import { invitationQuery, type FullOrganization, type Invitation } from "./queries";
import { SettingsCard } from "./settings";
import { TeamsCard } from "./teams";

const messages = defineMessages({
  yourRole: defineMessage<{ role: string }>({ id: "organizations.page.yourRole", defaultMessage: "Your role: {role}" }),
  noRole: { id: "organizations.page.noRole", defaultMessage: "none" },
  sell: { id: "organizations.page.sell", defaultMessage: "Products and sales" },
  loadingInvitation: { id: "organizations.invitation.loading", defaultMessage: "Loading the invitation…" },
  invitation: { id: "organizations.invitation.title", defaultMessage: "Invitation" },
  confirmEmail: { id: "organizations.invitation.confirmEmail", defaultMessage: "Confirm your e-mail address to open this invitation." },
  followLink: defineMessage<{ email: string }>({
    id: "organizations.invitation.followLink",
    defaultMessage: "Follow the link we sent to {email}, or send a new one from the banner above; then open the invitation link again.",
  }),
  missing: { id: "organizations.invitation.missing", defaultMessage: "This invitation does not exist." },
  missingWhy: {
    id: "organizations.invitation.missingWhy",
    defaultMessage: "It may have expired, been cancelled, or be meant for another e-mail address than the one you are signed in with.",
  },
  declinedTitle: { id: "organizations.invitation.declinedTitle", defaultMessage: "Invitation declined" },
  declined: defineMessage<{ organization: string }>({ id: "organizations.invitation.declined", defaultMessage: "You declined the invitation to {organization}." }),
  join: defineMessage<{ organization: string }>({ id: "organizations.invitation.join", defaultMessage: "Join {organization}?" }),
  invitedAs: defineMessage<{ inviter: string; role: string }>({ id: "organizations.invitation.invitedAs", defaultMessage: "{inviter} invited you as {role}." }),
  accept: { id: "organizations.invitation.accept", defaultMessage: "Accept and join" },
  decline: { id: "organizations.invitation.decline", defaultMessage: "Decline" },
});

export function OrganizationScreen() {
  const { slug } = useParams({ strict: false });
  return <RequireSession>{(session) => <OrganizationPage slug={slug ?? ""} session={session} />}</RequireSession>;
}

function OrganizationPage({ slug, session }: { slug: string; session: Session }) {
  return <WithOrganization slug={slug}>{(data) => <OrganizationCards data={data} session={session} />}</WithOrganization>;
}

function OrganizationCards({ data, session }: { data: FullOrganization; session: Session }) {
  const { formatMessage } = useIntl();
  const roleName = useRoleName();
  const role = data.members.find((member) => member.userId === session.user.id)?.role;
  return (
    <Page
      title={data.name}
      description={formatMessage(messages.yourRole, { role: role === undefined ? formatMessage(messages.noRole) : roleName(role) })}
      actions={
        <Link className="button button-secondary" to="/$slug" params={{ slug: data.slug }}>
          {formatMessage(messages.sell)}
        </Link>
      }
    >
      <div className="stack">
        <MembersCard organization={data} role={role} session={session} />
        <InvitationsCard organization={data} role={role} />
        <TeamsCard organization={data} role={role} />
        <SettingsCard organization={data} role={role} />
        <TestClockCard organizationId={data.id} role={role} />
      </div>
    </Page>
  );
}

/** Where the invitation mail's link leads: the invitation, and a choice. */
export function AcceptInvitationScreen() {
  const { invitationId } = useParams({ strict: false });
  const id = invitationId ?? "";
  return <RequireSession>{(session) => <InvitationDecision id={id} session={session} />}</RequireSession>;
}

function InvitationDecision({ id, session }: { id: string; session: Session }) {
  const { formatMessage } = useIntl();
  // Invitations open only to an address its owner has proven: anyone could sign up with someone else's.
  const unverified = !session.user.emailVerified;
  const missingPage = (said: ReactNode) => (
    <Page title={formatMessage(messages.invitation)}>
      {said}
      <p className="muted">{unverified ? formatMessage(messages.followLink, { email: session.user.email }) : formatMessage(messages.missingWhy)}</p>
    </Page>
  );
  return (
    <QueryState
      query={useQuery(invitationQuery(id))}
      loading={messages.loadingInvitation}
      failure={(error) => (unverified ? formatMessage(messages.confirmEmail) : error.message)}
      framed={missingPage}
      isEmpty={(invitation) => !invitation}
      empty={missingPage(<Alert tone="error">{formatMessage(messages.missing)}</Alert>)}
    >
      {(invitation) => invitation && <InvitationAnswer id={id} invitation={invitation} />}
    </QueryState>
  );
}

/** The invitation read: accept it (and go to the organization) or decline it. */
function InvitationAnswer({ id, invitation }: { id: string; invitation: Invitation }) {
  const { formatMessage } = useIntl();
  const roleName = useRoleName();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [failure, setFailure] = useState<string | null>(null);
  const [rejected, setRejected] = useState(false);
  const [busy, setBusy] = useState<"accept" | "reject" | null>(null);
  const decide = async (accept: boolean) => {
    setBusy(accept ? "accept" : "reject");
    const failure = await failureIn(accept ? viaAuth(() => authClient.organization.acceptInvitation({ invitationId: id })) : viaAuth(() => authClient.organization.rejectInvitation({ invitationId: id })));
    setBusy(null);
    if (failure !== null) return setFailure(failure);
    await queryClient.invalidateQueries();
    if (!accept) return setRejected(true);
    await navigate({ to: "/organizations/$slug", params: { slug: invitation.organizationSlug } });
  };
  if (rejected) return <Page title={formatMessage(messages.declinedTitle)}>{formatMessage(messages.declined, { organization: invitation.organizationName })}</Page>;
  return (
    <Page
      title={formatMessage(messages.join, { organization: invitation.organizationName })}
      description={formatMessage(messages.invitedAs, { inviter: invitation.inviterEmail, role: roleName(invitation.role) })}
    >
      {failure && <Alert tone="error">{failure}</Alert>}
      <div className="actions">
        <Button busy={busy === "accept"} disabled={busy !== null} onClick={() => void decide(true)}>
          {formatMessage(messages.accept)}
        </Button>
        <Button variant="secondary" busy={busy === "reject"} disabled={busy !== null} onClick={() => void decide(false)}>
          {formatMessage(messages.decline)}
        </Button>
      </div>
    </Page>
  );
}
