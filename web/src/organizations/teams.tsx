import { zodResolver } from "@hookform/resolvers/zod";
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { defineMessage, defineMessages, useIntl } from "react-intl";
import { authClient, viaAuth } from "../api/auth-client";
import { errorCode } from "../api/client";
import { teamForm } from "./form";
import { Alert, Button, Card, EmptyState, Field } from "../ui/components";
import { QueryState } from "../ui/query-state";
import { organizationMessages } from "./organization";
import { teamMembersQuery, useOrganizationAction, useTeamMembership, type FullOrganization } from "./queries";
import { permission } from "./permissions";

const messages = defineMessages({
  added: { id: "organizations.teams.added", defaultMessage: "Added to the team." },
  removed: { id: "organizations.teams.removed", defaultMessage: "Removed from the team." },
  loadingMembers: { id: "organizations.teams.loadingMembers", defaultMessage: "Loading team members…" },
  hidden: { id: "organizations.teams.hidden", defaultMessage: "Only the team's own members can see who is in it." },
  empty: { id: "organizations.teams.empty", defaultMessage: "Nobody is in this team yet." },
  membersOf: defineMessage<{ team: string }>({ id: "organizations.teams.membersOf", defaultMessage: "Members of {team}" }),
  removeFrom: defineMessage<{ name: string; team: string }>({ id: "organizations.teams.removeFrom", defaultMessage: "Remove {name} from {team}" }),
  memberToAdd: defineMessage<{ team: string }>({ id: "organizations.teams.memberToAdd", defaultMessage: "Member to add to {team}" }),
  addMember: { id: "organizations.teams.addMember", defaultMessage: "Add a member…" },
  addTo: defineMessage<{ team: string }>({ id: "organizations.teams.addTo", defaultMessage: "Add to {team}" }),
  add: { id: "organizations.teams.add", defaultMessage: "Add" },
  teams: { id: "organizations.teams.title", defaultMessage: "Teams" },
  noTeams: { id: "organizations.teams.none", defaultMessage: "No teams yet." },
  createBelow: { id: "organizations.teams.createBelow", defaultMessage: "Create one below to group members." },
  newNameFor: defineMessage<{ team: string }>({ id: "organizations.teams.newNameFor", defaultMessage: "New name for {team}" }),
  save: { id: "organizations.teams.save", defaultMessage: "Save" },
  rename: { id: "organizations.teams.rename", defaultMessage: "Rename" },
  newTeam: { id: "organizations.teams.newTeam", defaultMessage: "New team" },
  createTeam: { id: "organizations.teams.create", defaultMessage: "Create team" },
});

function TeamMembers({ organization, teamId, teamName, manageable }: { organization: FullOrganization; teamId: string; teamName: string; manageable: boolean }) {
  const { formatMessage } = useIntl();
  const members = useQuery(teamMembersQuery(teamId));
  const change = useTeamMembership(teamId);
  const [notice, setNotice] = useState<string | null>(null);
  const said = (add: boolean) => () => setNotice(formatMessage(add ? messages.added : messages.removed));
  const [candidate, setCandidate] = useState("");
  const inTeam = new Set(members.data?.map((member) => member.userId));
  const nameOf = (userId: string) => organization.members.find((member) => member.userId === userId)?.user.name ?? userId;
  const outside = organization.members.filter((member) => !inTeam.has(member.userId));
  return (
    <div className="team-members">
      <QueryState
        query={members}
        loading={messages.loadingMembers}
        // better-auth shows a team's members to its own members only.
        failure={(error) => (errorCode(error.failure) === "USER_IS_NOT_A_MEMBER_OF_THE_TEAM" ? formatMessage(messages.hidden) : error.message)}
        isEmpty={(list) => list.length === 0}
        empty={<p className="muted">{formatMessage(messages.empty)}</p>}
      >
        {() => (
          <ul className="chips" aria-label={formatMessage(messages.membersOf, { team: teamName })}>
            {[...inTeam].map((userId) => (
              <li key={userId} className="chip">
                {nameOf(userId)}
                {manageable && (
                  <button
                    type="button"
                    className="chip-remove"
                    aria-label={formatMessage(messages.removeFrom, { name: nameOf(userId), team: teamName })}
                    onClick={() => change.mutate({ userId, add: false }, { onSuccess: said(false) })}
                  >
                    ×
                  </button>
                )}
              </li>
            ))}
          </ul>
        )}
      </QueryState>
      {manageable && outside.length > 0 && (
        <div className="row">
          <label className="sr-only" htmlFor={`add-${teamId}`}>
            {formatMessage(messages.memberToAdd, { team: teamName })}
          </label>
          <select id={`add-${teamId}`} value={candidate} onChange={(event) => setCandidate(event.target.value)}>
            <option value="">{formatMessage(messages.addMember)}</option>
            {outside.map((member) => (
              <option key={member.userId} value={member.userId}>
                {member.user.name}
              </option>
            ))}
          </select>
          <Button
            variant="secondary"
            disabled={!candidate}
            busy={change.isPending}
            aria-label={formatMessage(messages.addTo, { team: teamName })}
            onClick={() =>
              change.mutate({ userId: candidate, add: true }, {
                onSuccess: () => {
                  said(true)();
                  setCandidate("");
                },
              })
            }
          >
            {formatMessage(messages.add)}
          </Button>
        </div>
      )}
      {change.error && <Alert tone="error">{change.error.message}</Alert>}
      {notice && !change.error && (
        <p role="status" className="hint">
          {notice}
        </p>
      )}
    </div>
  );
}

export function TeamsCard({ organization, role }: { organization: FullOrganization; role: string | undefined }) {
  const { formatMessage } = useIntl();
  const act = useOrganizationAction(organization.slug);
  const [failure, setFailure] = useState<string | null>(null);
  const [renaming, setRenaming] = useState<{ id: string; name: string } | null>(null);
  const form = useForm({ resolver: zodResolver(teamForm), defaultValues: { name: "" } });
  const allowed = permission(role, "manage-teams");
  const submit = form.handleSubmit(async ({ name }) => {
    const error = await act(() => viaAuth(() => authClient.organization.createTeam({ name, organizationId: organization.id })));
    setFailure(error);
    if (!error) form.reset();
  });
  const teams = organization.teams ?? [];
  return (
    <Card title={formatMessage(messages.teams)}>
      {teams.length === 0 && <EmptyState title={formatMessage(messages.noTeams)}>{allowed.allowed && <p>{formatMessage(messages.createBelow)}</p>}</EmptyState>}
      <ul className="list">
        {teams.map((team) => (
          <li key={team.id} className="list-block">
            <div className="list-row">
              {renaming?.id === team.id ? (
                <form
                  className="row"
                  onSubmit={(event) => {
                    event.preventDefault();
                    void act(() => viaAuth(() => authClient.organization.updateTeam({ teamId: team.id, data: { name: renaming.name } }))).then((error) => {
                      setFailure(error);
                      if (!error) setRenaming(null);
                    });
                  }}
                >
                  <label className="sr-only" htmlFor={`rename-${team.id}`}>
                    {formatMessage(messages.newNameFor, { team: team.name })}
                  </label>
                  <input id={`rename-${team.id}`} value={renaming.name} onChange={(event) => setRenaming({ id: team.id, name: event.target.value })} />
                  <Button type="submit">{formatMessage(messages.save)}</Button>
                  <Button variant="ghost" onClick={() => setRenaming(null)}>
                    {formatMessage(organizationMessages.cancel)}
                  </Button>
                </form>
              ) : (
                <strong>{team.name}</strong>
              )}
              {allowed.allowed && renaming?.id !== team.id && (
                <div className="row">
                  <Button variant="secondary" onClick={() => setRenaming({ id: team.id, name: team.name })}>
                    {formatMessage(messages.rename)}
                  </Button>
                  <Button variant="secondary" onClick={() => void act(() => viaAuth(() => authClient.organization.removeTeam({ teamId: team.id, organizationId: organization.id }))).then(setFailure)}>
                    {formatMessage(organizationMessages.remove)}
                  </Button>
                </div>
              )}
            </div>
            <TeamMembers organization={organization} teamId={team.id} teamName={team.name} manageable={allowed.allowed} />
          </li>
        ))}
      </ul>
      {allowed.allowed ? (
        <form onSubmit={(event) => void submit(event)} noValidate className="inline-form">
          <Field label={formatMessage(messages.newTeam)} error={form.formState.errors.name?.message}>
            {(ids) => <input {...ids} {...form.register("name")} />}
          </Field>
          <Button type="submit" busy={form.formState.isSubmitting}>
            {formatMessage(messages.createTeam)}
          </Button>
        </form>
      ) : (
        <p className="hint">{allowed.reason}</p>
      )}
      {failure && <Alert tone="error">{failure}</Alert>}
    </Card>
  );
}
