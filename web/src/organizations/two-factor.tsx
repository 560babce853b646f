import { useQuery } from "@tanstack/react-query";
import { useNavigate } from "@tanstack/react-router";
import { useState } from "react";
import { defineMessage, defineMessages, useIntl } from "react-intl";
import type { Session } from "../api/auth-client";
import { describeFailure, errorCode, type ApiFailure } from "../api/client";
import { Alert, Button, Card, Page } from "../ui/components";
import { OutcomeAlert, type Outcome } from "../ui/outcome";
import { organizationsQuery, useLeaveOrganization, useTwoFactorRequirement, type FullOrganization } from "./queries";
import { permission } from "./permissions";

/** Where a person turns their own two-factor authentication on (the account's security section). */
export const SECURITY_SETTINGS = "/account#security";

const messages = defineMessages({
  title: { id: "organizations.twoFactor.title", defaultMessage: "Two-factor authentication" },
  require: { id: "organizations.twoFactor.require", defaultMessage: "Require two-factor authentication for all members" },
  explanation: {
    id: "organizations.twoFactor.explanation",
    defaultMessage: "Members, owners included, then reach this organization and its console only from a session with two-factor authentication. Those without it are asked to enable it, or may leave. Access tokens are not affected.",
  },
  enableYoursFirst: { id: "organizations.twoFactor.enableYoursFirst", defaultMessage: "Enable two-factor authentication on your own account first, or you would lock yourself out." },
  openSecurity: { id: "organizations.twoFactor.openSecurity", defaultMessage: "Open security settings" },
  turnedOn: { id: "organizations.twoFactor.turnedOn", defaultMessage: "Members now need two-factor authentication." },
  turnedOff: { id: "organizations.twoFactor.turnedOff", defaultMessage: "Members no longer need two-factor authentication." },
  requiredTitle: defineMessage<{ name: string }>({ id: "organizations.twoFactor.requiredTitle", defaultMessage: "{name} requires two-factor authentication" }),
  requiredText: {
    id: "organizations.twoFactor.requiredText",
    defaultMessage: "Its owners ask every member to sign in with a second factor. Enable two-factor authentication in your account's security settings to open it again.",
  },
  leave: { id: "organizations.twoFactor.leave", defaultMessage: "Leave the organization" },
  thisOrganization: { id: "organizations.twoFactor.thisOrganization", defaultMessage: "This organization" },
});

/** Whether a refusal is an organization's two-factor requirement, which the person can meet. */
export const isTwoFactorRefusal = (error: ApiFailure | null) => error !== null && errorCode(error.failure) === "TWO_FACTOR_REQUIRED";

/** Read defensively: get-session's user tells of two-factor only once the auth service supports it. */
const hasTwoFactor = (session: Session) => (session.user as { twoFactorEnabled?: unknown }).twoFactorEnabled === true;

/** The owners' switch for requiring two-factor authentication of every member. */
export function TwoFactorRequirementCard({ organization, role, session }: { organization: FullOrganization; role: string | undefined; session: Session }) {
  const { formatMessage } = useIntl();
  const requirement = useTwoFactorRequirement(organization.id);
  const [outcome, setOutcome] = useState<Outcome>(null);
  const [refusedForSelf, setRefusedForSelf] = useState(false);
  const required = organization.requireTwoFactor === true;
  const may = permission(role, "require-two-factor");
  const change = async (requireTwoFactor: boolean) => {
    setOutcome(null);
    // Turning it on without a second factor of one's own would shut oneself out: the server refuses it too.
    setRefusedForSelf(requireTwoFactor && !hasTwoFactor(session));
    if (requireTwoFactor && !hasTwoFactor(session)) return;
    try {
      await requirement.mutateAsync(requireTwoFactor);
      setOutcome({ tone: "success", text: formatMessage(requireTwoFactor ? messages.turnedOn : messages.turnedOff) });
    } catch (reason) {
      setOutcome({ tone: "error", text: describeFailure(reason) });
    }
  };
  return (
    <Card title={formatMessage(messages.title)} description={formatMessage(messages.explanation)}>
      <label className="checkbox">
        <input type="checkbox" role="switch" checked={required} disabled={!may.allowed || requirement.isPending} onChange={(event) => void change(event.target.checked)} />
        {formatMessage(messages.require)}
      </label>
      {!may.allowed && <p className="hint">{may.reason}</p>}
      {refusedForSelf && (
        <Alert tone="error">
          {formatMessage(messages.enableYoursFirst)} <a href={SECURITY_SETTINGS}>{formatMessage(messages.openSecurity)}</a>
        </Alert>
      )}
      <OutcomeAlert outcome={outcome} />
    </Card>
  );
}

/** What a member without two-factor sees of an organization that requires it: why, where to enable it, and a way out. */
export function TwoFactorRequiredScreen({ slug }: { slug: string }) {
  const { formatMessage } = useIntl();
  const navigate = useNavigate();
  const organizations = useQuery(organizationsQuery);
  const leave = useLeaveOrganization();
  const [failure, setFailure] = useState<string | null>(null);
  const organization = organizations.data?.find((one) => one.slug === slug);
  const name = organization?.name ?? formatMessage(messages.thisOrganization);
  const leaveIt = async () => {
    if (!organization) return;
    try {
      await leave.mutateAsync(organization.id);
    } catch (reason) {
      setFailure(describeFailure(reason));
      return;
    }
    await navigate({ to: "/" });
  };
  return (
    <Page title={formatMessage(messages.requiredTitle, { name })}>
      <Card title={formatMessage(messages.title)}>
        <p>{formatMessage(messages.requiredText)}</p>
        {failure && <Alert tone="error">{failure}</Alert>}
        <div className="actions">
          <a className="button button-primary" href={SECURITY_SETTINGS}>
            {formatMessage(messages.openSecurity)}
          </a>
          {organization && (
            <Button variant="secondary" busy={leave.isPending} onClick={() => void leaveIt()}>
              {formatMessage(messages.leave)}
            </Button>
          )}
        </div>
      </Card>
    </Page>
  );
}
