import { useQuery } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { defineMessage, defineMessages, FormattedMessage, useIntl, type MessageTag } from "react-intl";
import { authClient } from "../api/auth-client";
import { organizationsQuery } from "../organizations/queries";
import { RequireSession } from "../shell";
import { EmptyState, Loading, Page } from "../ui/components";
import { QueryState } from "../ui/query-state";
import { LanguageCard } from "./language-card";
import { EmailCard, PasswordCard, ProfileCard } from "./profile-cards";
import { SecuritySection } from "./security/security-section";
import { DeleteAccountCard, LinkedAccountsCard } from "./session-cards";

const messages = defineMessages({
  accountTitle: { id: "account.title", defaultMessage: "Your account" },
  loading: { id: "home.loading", defaultMessage: "Loading Tollgate…" },
  tagline: { id: "home.tagline", defaultMessage: "Accounts, organizations and subscription billing you run yourself." },
  getStarted: { id: "home.getStarted", defaultMessage: "Sign in to get started." },
  signInOrSignUp: defineMessage<{ signIn: MessageTag; signUp: MessageTag }>({
    id: "home.signInOrSignUp",
    defaultMessage: "<signIn>Sign in</signIn> or <signUp>create an account</signUp>.",
  }),
  organizationsTitle: { id: "home.organizations.title", defaultMessage: "Your organizations" },
  newOrganization: { id: "home.organizations.new", defaultMessage: "New organization" },
  loadingOrganizations: { id: "home.organizations.loading", defaultMessage: "Loading your organizations…" },
  noOrganizations: { id: "home.organizations.none", defaultMessage: "You are not in any organization yet." },
  noOrganizationsHint: { id: "home.organizations.noneHint", defaultMessage: "Create one to invite people and work together, or ask someone to invite you." },
});

export function AccountScreen() {
  const { formatMessage } = useIntl();
  return (
    <RequireSession>
      {(session) => (
        <Page title={formatMessage(messages.accountTitle)} description={session.user.email}>
          <div className="stack">
            <ProfileCard session={session} />
            <EmailCard session={session} />
            <PasswordCard session={session} />
            <LanguageCard session={session} />
            <SecuritySection session={session} />
            <LinkedAccountsCard />
            <DeleteAccountCard />
          </div>
        </Page>
      )}
    </RequireSession>
  );
}

export function HomeScreen() {
  const session = authClient.useSession();
  const { formatMessage } = useIntl();
  if (session.isPending) return <Loading message={messages.loading} />;
  if (!session.data) {
    return (
      <Page title="Tollgate" description={formatMessage(messages.tagline)}>
        <EmptyState title={formatMessage(messages.getStarted)}>
          <p>
            <FormattedMessage
              {...messages.signInOrSignUp}
              values={{ signIn: (chunks) => <Link to="/sign-in">{chunks}</Link>, signUp: (chunks) => <Link to="/sign-up">{chunks}</Link> }}
            />
          </p>
        </EmptyState>
      </Page>
    );
  }
  return <OrganizationsHome />;
}

function OrganizationsHome() {
  const { formatMessage } = useIntl();
  const organizations = useQuery(organizationsQuery);
  return (
    <Page
      title={formatMessage(messages.organizationsTitle)}
      actions={
        <Link className="button button-primary" to="/organizations/new">
          {formatMessage(messages.newOrganization)}
        </Link>
      }
    >
      <QueryState
        query={organizations}
        loading={messages.loadingOrganizations}
        isEmpty={(list) => list.length === 0}
        empty={
          <EmptyState title={formatMessage(messages.noOrganizations)}>
            <p>{formatMessage(messages.noOrganizationsHint)}</p>
          </EmptyState>
        }
      >
        {(list) => (
          <ul className="list">
            {list.map((organization) => (
              <li key={organization.id} className="list-row">
                <Link to="/$slug" params={{ slug: organization.slug }}>
                  {organization.name}
                </Link>
                <span className="muted">{organization.slug}</span>
              </li>
            ))}
          </ul>
        )}
      </QueryState>
    </Page>
  );
}
