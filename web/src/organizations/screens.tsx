import { zodResolver } from "@hookform/resolvers/zod";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Link, useNavigate, useParams } from "@tanstack/react-router";
import { useEffect, useState, type ReactNode } from "react";
import { useForm } from "react-hook-form";
import { authClient, orThrow, viaAuth, type ApiFailure, type Session } from "../api/auth-client";
import { describeError, errorCode, type ApiResult } from "../api/client";
import { inviteForm, organizationForm, parseMetadata, ROLES, slug as slugRule, slugify, teamForm, type OrganizationForm } from "../forms/schemas";
import { TestClockCard } from "../billing/test-clock";
import { RequireSession } from "../shell";
import { Alert, Button, Card, ConfirmDialog, EmptyState, Field, Loading, Page } from "../ui/components";
import { mayManageMember, permission, type OrganizationAction } from "./permissions";

type Availability = "unchecked" | "checking" | "free" | "taken" | "error";

/** Asks the server whether a slug is free, a moment after the typing stops. */
function useSlugAvailability(candidate: string, unchangedFrom?: string): Availability {
  const [availability, setAvailability] = useState<Availability>("unchecked");
  useEffect(() => {
    if (!slugRule.safeParse(candidate).success || candidate === unchangedFrom) {
      setAvailability("unchecked");
      return;
    }
    setAvailability("checking");
    let current = true;
    const timer = setTimeout(() => {
      void viaAuth(() => authClient.organization.checkSlug({ slug: candidate })).then((result) => {
        if (!current) return;
        if (result.error) setAvailability(result.error.status === 400 ? "taken" : "error");
        else setAvailability(result.data.status ? "free" : "taken");
      });
    }, 350);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [candidate, unchangedFrom]);
  return availability;
}

const AVAILABILITY_TEXT: Record<Availability, string | undefined> = {
  unchecked: undefined,
  checking: "Checking whether it is free…",
  free: "That address is free.",
  taken: undefined,
  error: "Could not check it now; it is checked again when you save.",
};

function OrganizationFields({ form, availability }: { form: ReturnType<typeof useForm<OrganizationForm>>; availability: Availability }) {
  const { errors } = form.formState;
  const slugError = errors.slug?.message ?? (availability === "taken" ? "That address is taken; choose another." : undefined);
  return (
    <>
      <Field label="Name" error={errors.name?.message}>
        {(ids) => <input {...ids} {...form.register("name")} />}
      </Field>
      <Field label="Address (slug)" hint={AVAILABILITY_TEXT[availability] ?? "Lower-case letters, digits and hyphens."} error={slugError}>
        {(ids) => <input {...ids} {...form.register("slug")} />}
      </Field>
      <Field label="Logo address" hint="A link to an image, or nothing." error={errors.logo?.message}>
        {(ids) => <input {...ids} {...form.register("logo")} type="url" />}
      </Field>
      <Field label="Metadata (JSON)" hint='Optional, for your own use, e.g. {"plan": "pro"}.' error={errors.metadata?.message}>
        {(ids) => <textarea {...ids} {...form.register("metadata")} rows={3} />}
      </Field>
    </>
  );
}

export function CreateOrganizationScreen() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [failure, setFailure] = useState<string | null>(null);
  const form = useForm<OrganizationForm>({ resolver: zodResolver(organizationForm), defaultValues: { name: "", slug: "", logo: "", metadata: "" } });
  const [slugEdited, setSlugEdited] = useState(false);
  const name = form.watch("name");
  const slug = form.watch("slug");
  // The address follows the name until someone types one of their own.
  useEffect(() => {
    if (!slugEdited) form.setValue("slug", slugify(name));
  }, [name, slugEdited, form]);
  const availability = useSlugAvailability(slug);
  const submit = form.handleSubmit(async (values) => {
    setFailure(null);
    const result = await viaAuth(() =>
      authClient.organization.create({ name: values.name, slug: values.slug, ...(values.logo ? { logo: values.logo } : {}), metadata: parseMetadata(values.metadata) }),
    );
    if (result.error) return setFailure(describeError(result.error));
    await queryClient.invalidateQueries();
    await navigate({ to: "/organizations/$slug", params: { slug: values.slug } });
  });
  return (
    <RequireSession>
      {() => (
        <Page title="New organization" description="An organization has members, invitations and teams, and sells through its own billing.">
          <Card title="About it">
            <form
              onSubmit={(event) => void submit(event)}
              onInput={(event) => {
                if ((event.target as HTMLInputElement).name === "slug") setSlugEdited(true);
              }}
              noValidate
            >
              <OrganizationFields form={form} availability={availability} />
              {failure && <Alert tone="error">{failure}</Alert>}
              <Button type="submit" busy={form.formState.isSubmitting} disabled={availability === "taken"}>
                Create organization
              </Button>
            </form>
          </Card>
        </Page>
      )}
    </RequireSession>
  );
}

function useFullOrganization(slug: string) {
  return useQuery({
    queryKey: ["organization", slug],
    queryFn: () => orThrow(viaAuth(() => authClient.organization.getFullOrganization({ query: { organizationSlug: slug } }))),
  });
}
type FullOrganization = NonNullable<ReturnType<typeof useFullOrganization>["data"]>;

/** A control someone's role does not allow: disabled, with the reason beside it. */
function Gated({ role, action, children }: { role: string | undefined; action: OrganizationAction; children: (disabled: boolean) => ReactNode }) {
  const check = permission(role, action);
  return (
    <>
      {children(!check.allowed)}
      {!check.allowed && <p className="hint">{check.reason}</p>}
    </>
  );
}

/** Runs an organization call, then refreshes the organization; the result's error for the screen. */
function useOrganizationAction(slug: string) {
  const queryClient = useQueryClient();
  return async (call: () => Promise<ApiResult<unknown>>): Promise<string | null> => {
    const result = await call();
    await queryClient.invalidateQueries({ queryKey: ["organization", slug] });
    return result.error ? describeError(result.error) : null;
  };
}

function SettingsCard({ organization, role }: { organization: FullOrganization; role: string | undefined }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [outcome, setOutcome] = useState<{ tone: "error" | "success"; text: string } | null>(null);
  const form = useForm<OrganizationForm>({
    resolver: zodResolver(organizationForm),
    defaultValues: {
      name: organization.name,
      slug: organization.slug,
      logo: organization.logo ?? "",
      metadata: organization.metadata ? JSON.stringify(organization.metadata) : "",
    },
  });
  const availability = useSlugAvailability(form.watch("slug"), organization.slug);
  const update = permission(role, "update");
  const submit = form.handleSubmit(async (values) => {
    const result = await viaAuth(() =>
      authClient.organization.update({
        organizationId: organization.id,
        data: { name: values.name, slug: values.slug, logo: values.logo || undefined, metadata: parseMetadata(values.metadata) },
      }),
    );
    setOutcome(result.error ? { tone: "error", text: describeError(result.error) } : { tone: "success", text: "Settings saved." });
    if (result.error) return;
    await queryClient.invalidateQueries();
    if (values.slug !== organization.slug) await navigate({ to: "/organizations/$slug", params: { slug: values.slug } });
  });
  const remove = async () => {
    const result = await viaAuth(() => authClient.organization.delete({ organizationId: organization.id }));
    if (result.error) {
      setOutcome({ tone: "error", text: describeError(result.error) });
      return false;
    }
    await queryClient.invalidateQueries();
    await navigate({ to: "/" });
    return true;
  };
  return (
    <Card title="Settings">
      <form onSubmit={(event) => void submit(event)} noValidate>
        <fieldset disabled={!update.allowed} className="plain">
          <OrganizationFields form={form} availability={availability} />
        </fieldset>
        {!update.allowed && <p className="hint">{update.reason}</p>}
        {outcome && <Alert tone={outcome.tone}>{outcome.text}</Alert>}
        <div className="actions">
          <Button type="submit" busy={form.formState.isSubmitting} disabled={!update.allowed || availability === "taken"}>
            Save settings
          </Button>
          <Gated role={role} action="delete">
            {(disabled) => (
              <ConfirmDialog
                trigger={
                  <Button variant="danger" disabled={disabled}>
                    Delete organization…
                  </Button>
                }
                title={`Delete ${organization.name}?`}
                description="Its members, invitations and teams go with it. This cannot be undone."
                confirmLabel="Delete organization"
                onConfirm={remove}
              />
            )}
          </Gated>
        </div>
      </form>
    </Card>
  );
}

function MembersCard({ organization, role, session }: { organization: FullOrganization; role: string | undefined; session: Session }) {
  const act = useOrganizationAction(organization.slug);
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [failure, setFailure] = useState<string | null>(null);
  const run = async (call: () => Promise<ApiResult<unknown>>) => setFailure(await act(call));
  const changeRoles = permission(role, "change-role");
  return (
    <Card title="Members">
      <ul className="list">
        {organization.members.map((member) => {
          const self = member.userId === session.user.id;
          const manage = mayManageMember(role, member.role);
          return (
            <li key={member.id} className="list-row">
              <div>
                <strong>{member.user.name}</strong> {self && <span className="badge">You</span>}
                <p className="muted">{member.user.email}</p>
              </div>
              <div className="row">
                <label className="sr-only" htmlFor={`role-${member.id}`}>
                  Role of {member.user.name}
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
                      {name}
                    </option>
                  ))}
                  {!ROLES.includes(member.role) && <option value={member.role}>{member.role}</option>}
                </select>
                {self ? (
                  <Button
                    variant="secondary"
                    onClick={() =>
                      void viaAuth(() => authClient.organization.leave({ organizationId: organization.id })).then(async (result) => {
                        if (result.error) return setFailure(describeError(result.error));
                        await queryClient.invalidateQueries();
                        await navigate({ to: "/" });
                      })
                    }
                  >
                    Leave
                  </Button>
                ) : (
                  <Button
                    variant="secondary"
                    disabled={!manage.allowed}
                    title={manage.allowed ? undefined : manage.reason}
                    onClick={() => void run(() => viaAuth(() => authClient.organization.removeMember({ memberIdOrEmail: member.id, organizationId: organization.id })))}
                  >
                    Remove
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

function InvitationsCard({ organization, role }: { organization: FullOrganization; role: string | undefined }) {
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
    setOutcome(error ? { tone: "error", text: error } : { tone: "success", text: `${resend ? "Sent again" : "Invitation sent"} to ${email}.` });
    return !error;
  };
  const submit = form.handleSubmit(async (values) => {
    if (await invite(values.email, values.role, values.teamId)) form.reset();
  });
  const pending = organization.invitations.filter((invitation) => invitation.status === "pending");
  return (
    <Card title="Invitations" description="People you invite get an e-mail with a link to join.">
      <form onSubmit={(event) => void submit(event)} noValidate className="inline-form">
        <fieldset disabled={!allowed.allowed} className="plain">
          <Field label="E-mail" error={errors.email?.message}>
            {(ids) => <input {...ids} {...form.register("email")} type="email" />}
          </Field>
          <Field label="Role">
            {(ids) => (
              <select {...ids} {...form.register("role")}>
                {ROLES.map((name) => (
                  <option key={name} value={name}>
                    {name}
                  </option>
                ))}
              </select>
            )}
          </Field>
          <Field label="Team (optional)">
            {(ids) => (
              <select {...ids} {...form.register("teamId")}>
                <option value="">No team</option>
                {organization.teams?.map((team) => (
                  <option key={team.id} value={team.id}>
                    {team.name}
                  </option>
                ))}
              </select>
            )}
          </Field>
          <Button type="submit" busy={isSubmitting}>
            Invite
          </Button>
        </fieldset>
      </form>
      {!allowed.allowed && <p className="hint">{allowed.reason}</p>}
      {outcome && <Alert tone={outcome.tone}>{outcome.text}</Alert>}
      {pending.length === 0 ? (
        <EmptyState title="No invitations are waiting.">{allowed.allowed && <p>Invite someone above.</p>}</EmptyState>
      ) : (
        <ul className="list">
          {pending.map((invitation) => (
            <li key={invitation.id} className="list-row">
              <div>
                <strong>{invitation.email}</strong> <span className="badge">{invitation.role}</span>
                <p className="muted">Expires {new Date(invitation.expiresAt).toLocaleString()}</p>
              </div>
              <div className="row">
                <Button variant="secondary" disabled={!allowed.allowed} onClick={() => void invite(invitation.email, invitation.role, invitation.teamId ?? "", true)}>
                  Resend
                </Button>
                <Button
                  variant="secondary"
                  disabled={!permission(role, "cancel-invitation").allowed}
                  onClick={() =>
                    void act(() => viaAuth(() => authClient.organization.cancelInvitation({ invitationId: invitation.id }))).then((error) =>
                      setOutcome(error ? { tone: "error", text: error } : { tone: "success", text: `The invitation to ${invitation.email} is cancelled.` }),
                    )
                  }
                >
                  Cancel
                </Button>
              </div>
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}

function TeamMembers({ organization, teamId, teamName, manageable }: { organization: FullOrganization; teamId: string; teamName: string; manageable: boolean }) {
  const queryClient = useQueryClient();
  const key = ["team-members", teamId];
  const members = useQuery({ queryKey: key, queryFn: () => orThrow(viaAuth(() => authClient.organization.listTeamMembers({ query: { teamId } }))) });
  const change = useMutation<unknown, ApiFailure, { userId: string; add: boolean }>({
    mutationFn: ({ userId, add }) =>
      add ? orThrow(viaAuth(() => authClient.organization.addTeamMember({ teamId, userId }))) : orThrow(viaAuth(() => authClient.organization.removeTeamMember({ teamId, userId }))),
    onSettled: () => queryClient.invalidateQueries({ queryKey: key }),
    onSuccess: (_, { add }) => setNotice(add ? "Added to the team." : "Removed from the team."),
  });
  const [notice, setNotice] = useState<string | null>(null);
  const [candidate, setCandidate] = useState("");
  if (members.isPending) return <Loading what="team members" />;
  // better-auth shows a team's members to its own members only.
  const hidden = members.error !== null && errorCode(members.error.failure) === "USER_IS_NOT_A_MEMBER_OF_THE_TEAM";
  const inTeam = new Set(members.data?.map((member) => member.userId));
  const nameOf = (userId: string) => organization.members.find((member) => member.userId === userId)?.user.name ?? userId;
  const outside = organization.members.filter((member) => !inTeam.has(member.userId));
  return (
    <div className="team-members">
      {hidden ? (
        <p className="muted">Only the team's own members can see who is in it.</p>
      ) : members.error ? (
        <Alert tone="error">{members.error.message}</Alert>
      ) : inTeam.size === 0 ? (
        <p className="muted">Nobody is in this team yet.</p>
      ) : (
        <ul className="chips" aria-label={`Members of ${teamName}`}>
          {[...inTeam].map((userId) => (
            <li key={userId} className="chip">
              {nameOf(userId)}
              {manageable && (
                <button type="button" className="chip-remove" aria-label={`Remove ${nameOf(userId)} from ${teamName}`} onClick={() => change.mutate({ userId, add: false })}>
                  ×
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
      {manageable && outside.length > 0 && (
        <div className="row">
          <label className="sr-only" htmlFor={`add-${teamId}`}>
            Member to add to {teamName}
          </label>
          <select id={`add-${teamId}`} value={candidate} onChange={(event) => setCandidate(event.target.value)}>
            <option value="">Add a member…</option>
            {outside.map((member) => (
              <option key={member.userId} value={member.userId}>
                {member.user.name}
              </option>
            ))}
          </select>
          <Button variant="secondary" disabled={!candidate} busy={change.isPending} onClick={() => change.mutate({ userId: candidate, add: true }, { onSuccess: () => setCandidate("") })}>
            Add<span className="sr-only"> to {teamName}</span>
          </Button>
        </div>
      )}
      {change.error && <Alert tone="error">{change.error.message}</Alert>}
      {notice && !change.error && <p role="status" className="hint">{notice}</p>}
    </div>
  );
}

function TeamsCard({ organization, role }: { organization: FullOrganization; role: string | undefined }) {
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
    <Card title="Teams">
      {teams.length === 0 && <EmptyState title="No teams yet.">{allowed.allowed && <p>Create one below to group members.</p>}</EmptyState>}
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
                    New name for {team.name}
                  </label>
                  <input id={`rename-${team.id}`} value={renaming.name} onChange={(event) => setRenaming({ id: team.id, name: event.target.value })} />
                  <Button type="submit">Save</Button>
                  <Button variant="ghost" onClick={() => setRenaming(null)}>
                    Cancel
                  </Button>
                </form>
              ) : (
                <strong>{team.name}</strong>
              )}
              {allowed.allowed && renaming?.id !== team.id && (
                <div className="row">
                  <Button variant="secondary" onClick={() => setRenaming({ id: team.id, name: team.name })}>
                    Rename
                  </Button>
                  <Button variant="secondary" onClick={() => void act(() => viaAuth(() => authClient.organization.removeTeam({ teamId: team.id, organizationId: organization.id }))).then(setFailure)}>
                    Remove
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
          <Field label="New team" error={form.formState.errors.name?.message}>
            {(ids) => <input {...ids} {...form.register("name")} />}
          </Field>
          <Button type="submit" busy={form.formState.isSubmitting}>
            Create team
          </Button>
        </form>
      ) : (
        <p className="hint">{allowed.reason}</p>
      )}
      {failure && <Alert tone="error">{failure}</Alert>}
    </Card>
  );
}

export function OrganizationScreen() {
  const { slug } = useParams({ strict: false });
  return (
    <RequireSession>
      {(session) => <OrganizationPage slug={slug ?? ""} session={session} />}
    </RequireSession>
  );
}

function OrganizationPage({ slug, session }: { slug: string; session: Session }) {
  const organization = useFullOrganization(slug);
  if (organization.isPending) return <Loading what="the organization" />;
  if (organization.error || !organization.data) {
    return (
      <Page title="Organization not found">
        <Alert tone="error">{organization.error?.message ?? "There is no organization at this address, or you are not a member."}</Alert>
        <Link to="/">Back to your organizations</Link>
      </Page>
    );
  }
  const data = organization.data;
  const role = data.members.find((member) => member.userId === session.user.id)?.role;
  return (
    <Page title={data.name} description={`Your role: ${role ?? "none"}`}>
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
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const invitation = useQuery({ queryKey: ["invitation", id], queryFn: () => orThrow(viaAuth(() => authClient.organization.getInvitation({ query: { id } }))), retry: false });
  const [failure, setFailure] = useState<string | null>(null);
  const [rejected, setRejected] = useState(false);
  const [busy, setBusy] = useState<"accept" | "reject" | null>(null);
  if (invitation.isPending) return <Loading what="the invitation" />;
  // Invitations open only to an address its owner has proven: anyone could sign up with someone else's.
  if (invitation.error && !session.user.emailVerified) {
    return (
      <Page title="Invitation">
        <Alert tone="error">Confirm your e-mail address to open this invitation.</Alert>
        <p className="muted">Follow the link we sent to {session.user.email}, or send a new one from the banner above; then open the invitation link again.</p>
      </Page>
    );
  }
  if (invitation.error || !invitation.data) {
    return (
      <Page title="Invitation">
        <Alert tone="error">{invitation.error?.message ?? "This invitation does not exist."}</Alert>
        <p className="muted">It may have expired, been cancelled, or be meant for another e-mail address than the one you are signed in with.</p>
      </Page>
    );
  }
  const data = invitation.data;
  const decide = async (accept: boolean) => {
    setBusy(accept ? "accept" : "reject");
    const result = accept
      ? await viaAuth(() => authClient.organization.acceptInvitation({ invitationId: id }))
      : await viaAuth(() => authClient.organization.rejectInvitation({ invitationId: id }));
    setBusy(null);
    if (result.error) return setFailure(describeError(result.error));
    await queryClient.invalidateQueries();
    if (!accept) return setRejected(true);
    await navigate({ to: "/organizations/$slug", params: { slug: data.organizationSlug } });
  };
  if (rejected) return <Page title="Invitation declined">You declined the invitation to {data.organizationName}.</Page>;
  return (
    <Page title={`Join ${data.organizationName}?`} description={`${data.inviterEmail} invited you as ${data.role}.`}>
      {failure && <Alert tone="error">{failure}</Alert>}
      <div className="actions">
        <Button busy={busy === "accept"} disabled={busy !== null} onClick={() => void decide(true)}>
          Accept and join
        </Button>
        <Button variant="secondary" busy={busy === "reject"} disabled={busy !== null} onClick={() => void decide(false)}>
          Decline
        </Button>
      </div>
    </Page>
  );
}
