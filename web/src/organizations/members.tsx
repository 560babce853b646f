import { zodResolver } from "@hookform/resolvers/zod";
import { useQueryClient } from "@tanstack/react-query";
import { useNavigate } from "@tanstack/react-router";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { defineMessage, defineMessages, useIntl } from "react-intl";
import { authClient, viaAuth, type Session } from "../api/auth-client";
import { describeFailure } from "../api/client";
import { inviteForm, ROLES } from "./form";
import { longDateTime } from "../i18n/format";
import { Alert, Button, Card, EmptyState, Field } from "../ui/components";
import { organizationMessages, useRoleName } from "./organization";
import { useOrganizationAction, type FullOrganization } from "./queries";
import { mayManageMember, permission } from "./permissions";

const messages = defineMessages({
  members: { id: "organizations.members.title", defaultMessage: "Members" },
  you: { id: "organizations.members.you", defaultMessage: "You" },
  roleOf: defineMessage<{ name: string }>({ id: "organizations.members.roleOf", defaultMessage: "Role of {name}" }),
  leave: { id: "organizations.members.leave", defaultMessage: "Leave" },
  invitationSent: defineMessage<{ email: string }>({ id: "organizations.invitations.sent", defaultMessage: "Invitation sent to {email}." }),
  sentAgain: defineMessage<{ email: string }>({ id: "organizations.invitations.sentAgain", defaultMessage: "Sent again to {email}." }),
  invitations: { id: "organizations.invitations.title", defaultMessage: "Invitations" },
  invitationsDescription: { id: "organizations.invitations.description", defaultMessage: "People you invite get an e-mail with a link to join." },
  team: { id: "organizations.invitations.team", defaultMessage: "Team (optional)" },
  noTeam: { id: "organizations.invitations.noTeam", defaultMessage: "No team" },
  invite: { id: "organizations.invitations.submit", defaultMessage: "Invite" },
  noneWaiting: { id: "organizations.invitations.none", defaultMessage: "No invitations are waiting." },
  inviteAbove: { id: "organizations.invitations.inviteAbove", defaultMessage: "Invite someone above." },
  expires: defineMessage<{ when: string }>({ id: "organizations.invitations.expires", defaultMessage: "Expires {when}" }),
  resend: { id: "organizations.invitations.resend", defaultMessage: "Resend" },
  cancelled: defineMessage<{ email: string }>({ id: "organizations.invitations.cancelled", defaultMessage: "The invitation to {email} is cancelled." }),
});

export function MembersCard({ organization, role, session }: { organization: FullOrganization; role: string | undefined; session: Session }) {
  const { formatMessage } = useIntl();
  const roleName = useRoleName();
  const act = useOrganizationAction(organization.slug);
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [failure, setFailure] = useState<string | null>(null);
  const run = async (call: () => Promise<unknown>) => setFailure(await act(call));
  const changeRoles = permission(role, "change-role");
  return (
    <Card title={formatMessage(messages.members)}>
      <ul className="list">
        {organization.members.map((member) => {
          const self = member.userId === session.user.id;
          const manage = mayManageMember(role, member.role);
          return (
            <li key={member.id} className="list-row">
              <div>
                <strong>{member.user.name}</strong> {self && <span className="badge">{formatMessage(messages.you)}</span>}
                <p className="muted">{member.user.email}</p>
              </div>
              <div className="row">
                <label className="sr-only" htmlFor={`role-${member.id}`}>
                  {formatMessage(messages.roleOf, { name: member.user.name })}
                </label>
                <select
                  id={`role-${member.id}`}
                  value={member.role}
                  disabled={!manage.allowed || self}
                  title={manage.allowed ? undefined : manage.reason}
                  onChange={(event) => void run(() => viaAuth(() => authClient.organization.updateMemberRole({ memberId: member.id, role: event.target.value, organizationId: organization.id })))}
                >
                  {ROLES.map((name) => (
                    <option key={name} value={name}>
                      {roleName(name)}
                    </option>
                  ))}
                  {!ROLES.includes(member.role) && <option value={member.role}>{member.role}</option>}
                </select>
                {self ? (
                  <Button
                    variant="secondary"
                    onClick={() =>
                      void viaAuth(() => authClient.organization.leave({ organizationId: organization.id })).then(
                        async () => {
                          await queryClient.invalidateQueries();
                          await navigate({ to: "/" });
                        },
                        (reason: unknown) => setFailure(describeFailure(reason)),
                      )
                    }
                  >
                    {formatMessage(messages.leave)}
                  </Button>
                ) : (
                  <Button
                    variant="secondary"
                    disabled={!manage.allowed}
                    title={manage.allowed ? undefined : manage.reason}
                    onClick={() => void run(() => viaAuth(() => authClient.organization.removeMember({ memberIdOrEmail: member.id, organizationId: organization.id })))}
                  >
                    {formatMessage(organizationMessages.remove)}
                  </Button>
                )}
              </div>
            </li>
          );
        })}
      </ul>
      {!changeRoles.allowed && <p className="hint">{changeRoles.reason}</p>}
      {failure && <Alert tone="error">{failure}</Alert>}
    </Card>
  );
}

export function InvitationsCard({ organization, role }: { organization: FullOrganization; role: string | undefined }) {
  const { formatMessage } = useIntl();
  const roleName = useRoleName();
  const act = useOrganizationAction(organization.slug);
  const [outcome, setOutcome] = useState<{ tone: "error" | "success"; text: string } | null>(null);
  const form = useForm({ resolver: zodResolver(inviteForm), defaultValues: { email: "", role: "member" as const, teamId: "" } });
  const { errors, isSubmitting } = form.formState;
  const allowed = permission(role, "invite");
  const invite = async (email: string, invitedRole: string, teamId: string, resend = false) => {
    const error = await act(() =>
      viaAuth(() =>
        authClient.organization.inviteMember({ email, role: invitedRole as (typeof ROLES)[number], organizationId: organization.id, resend, ...(teamId ? { teamId } : {}) }),
      ),
    );
    setOutcome(error ? { tone: "error", text: error } : { tone: "success", text: formatMessage(resend ? messages.sentAgain : messages.invitationSent, { email }) });
    return !error;
  };
  const submit = form.handleSubmit(async (values) => {
    if (await invite(values.email, values.role, values.teamId)) form.reset();
  });
  const pending = organization.invitations.filter((invitation) => invitation.status === "pending");
  return (
    <Card title={formatMessage(messages.invitations)} description={formatMessage(messages.invitationsDescription)}>
      <form onSubmit={(event) => void submit(event)} noValidate className="inline-form">
        <fieldset disabled={!allowed.allowed} className="plain">
          <Field label={formatMessage(organizationMessages.email)} error={errors.email?.message}>
            {(ids) => <input {...ids} {...form.register("email")} type="email" />}
          </Field>
          <Field label={formatMessage(organizationMessages.role)}>
            {(ids) => (
              <select {...ids} {...form.register("role")}>
                {ROLES.map((name) => (
                  <option key={name} value={name}>
                    {roleName(name)}
                  </option>
                ))}
              </select>
            )}
          </Field>
          <Field label={formatMessage(messages.team)}>
            {(ids) => (
              <select {...ids} {...form.register("teamId")}>
                <option value="">{formatMessage(messages.noTeam)}</option>
                {organization.teams?.map((team) => (
                  <option key={team.id} value={team.id}>
                    {team.name}
                  </option>
                ))}
              </select>
            )}
          </Field>
          <Button type="submit" busy={isSubmitting}>
            {formatMessage(messages.invite)}
          </Button>
        </fieldset>
      </form>
      {!allowed.allowed && <p className="hint">{allowed.reason}</p>}
      {outcome && <Alert tone={outcome.tone}>{outcome.text}</Alert>}
      {pending.length === 0 ? (
        <EmptyState title={formatMessage(messages.noneWaiting)}>{allowed.allowed && <p>{formatMessage(messages.inviteAbove)}</p>}</EmptyState>
      ) : (
        <ul className="list">
          {pending.map((invitation) => (
            <li key={invitation.id} className="list-row">
              <div>
                <strong>{invitation.email}</strong> <span className="badge">{roleName(invitation.role)}</span>
                <p className="muted">{formatMessage(messages.expires, { when: longDateTime(invitation.expiresAt) })}</p>
              </div>
              <div className="row">
                <Button variant="secondary" disabled={!allowed.allowed} onClick={() => void invite(invitation.email, invitation.role, invitation.teamId ?? "", true)}>
                  {formatMessage(messages.resend)}
                </Button>
                <Button
                  variant="secondary"
                  disabled={!permission(role, "cancel-invitation").allowed}
                  onClick={() =>
                    void act(() => viaAuth(() => authClient.organization.cancelInvitation({ invitationId: invitation.id }))).then((error) =>
                      setOutcome(error ? { tone: "error", text: error } : { tone: "success", text: formatMessage(messages.cancelled, { email: invitation.email }) }),
                    )
                  }
                >
                  {formatMessage(organizationMessages.cancel)}
                </Button>
              </div>
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}
