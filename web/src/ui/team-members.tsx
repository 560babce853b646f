import { zodResolver } from "@hookform/resolvers/zod";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { defineMessage, defineMessages, useIntl } from "react-intl";
import type { z } from "zod/mini";
import type { Member } from "../api/wire";
import { placeRefusals, refusalText } from "../forms/refusals";
import { ADDED_ROLES, memberForm, type AddedMember, type MemberForm } from "../forms/team";
import { Alert, Button, EmptyState, Field } from "./components";
import { ConfirmDialog } from "./confirm-dialog";
import { FormDialog, FormDialogActions } from "./form-dialog";
import type { Outcome } from "./outcome";

/**
 * A team customer's members, as the seller's console and the team's owner in the portal both
 * manage them: add one, change a role, remove one. What the API refuses (the only owner removed,
 * say) is said in its own words beside the member it is about.
 */

export type MemberRole = Member["role"];
/** A member as both the console's and the portal's lists serve one. */
export type TeamMember = Pick<Member, "id" | "email" | "name" | "role">;

/** The calls that change the team; each rejects as the API refused. */
export interface MemberChanges {
  add: (member: AddedMember) => Promise<unknown>;
  changeRole: (member: TeamMember, role: MemberRole) => Promise<unknown>;
  remove: (member: TeamMember) => Promise<unknown>;
}

const ROLES: MemberRole[] = ["owner", "billing_manager", "member"];

const messages = defineMessages({
  label: { id: "ui.team.members.label", defaultMessage: "Members" },
  none: { id: "ui.team.members.none", defaultMessage: "No members yet." },
  role: defineMessage<{ role: string }>({ id: "ui.team.members.role", defaultMessage: "{role, select, owner {Owner} billing_manager {Billing manager} other {Member}}" }),
  roleOf: defineMessage<{ email: string }>({ id: "ui.team.members.roleOf", defaultMessage: "Role of {email}" }),
  roleChanged: defineMessage<{ email: string }>({ id: "ui.team.members.roleChanged", defaultMessage: "The role of {email} was changed." }),
  remove: { id: "ui.team.members.remove", defaultMessage: "Remove" },
  removeNamed: defineMessage<{ email: string }>({ id: "ui.team.members.removeNamed", defaultMessage: "Remove {email}" }),
  removeTitle: defineMessage<{ email: string }>({ id: "ui.team.members.removeTitle", defaultMessage: "Remove {email} from the team?" }),
  removeText: { id: "ui.team.members.removeText", defaultMessage: "Their seat is given up and what it gave them ends at once." },
  add: { id: "ui.team.members.add", defaultMessage: "Add a member" },
  email: { id: "ui.team.members.email", defaultMessage: "E-mail" },
  name: { id: "ui.team.members.name", defaultMessage: "Name (optional)" },
  roleLabel: { id: "ui.team.members.roleLabel", defaultMessage: "Role" },
  roleHint: { id: "ui.team.members.roleHint", defaultMessage: "A billing manager also manages the team, its seats and its billing. The team's one owner is changed by giving another member that role." },
  save: { id: "ui.team.members.save", defaultMessage: "Add member" },
  cancel: { id: "ui.team.members.cancel", defaultMessage: "Cancel" },
});

/** The members, each with their role and, when `changes` are offered, a way to change it or remove them. */
export function TeamMembers({ members, changes }: { members: TeamMember[]; changes?: MemberChanges }) {
  const { formatMessage } = useIntl();
  return (
    <>
      {members.length === 0 ? (
        <EmptyState title={formatMessage(messages.none)} />
      ) : (
        <ul className="list" aria-label={formatMessage(messages.label)}>
          {members.map((member) => (
            <MemberItem key={member.id} member={member} changes={changes} />
          ))}
        </ul>
      )}
      {changes && <AddMemberDialog add={changes.add} />}
    </>
  );
}

function MemberItem({ member, changes }: { member: TeamMember; changes?: MemberChanges }) {
  const { formatMessage } = useIntl();
  const [outcome, setOutcome] = useState<Outcome>(null);
  const [busy, setBusy] = useState(false);
  const { email } = member;
  const changeRole = async (role: MemberRole) => {
    if (!changes) return;
    setOutcome(null);
    setBusy(true);
    try {
      await changes.changeRole(member, role);
      setOutcome({ tone: "success", text: formatMessage(messages.roleChanged, { email }) });
    } catch (reason) {
      setOutcome({ tone: "error", text: refusalText(reason) });
    }
    setBusy(false);
  };
  const remove = async () => {
    setOutcome(null);
    try {
      await changes?.remove(member);
    } catch (reason) {
      setOutcome({ tone: "error", text: refusalText(reason) });
    }
    return true;
  };
  return (
    <li className="list-block">
      <div className="list-row">
        <p className="team-who">
          {member.name && <strong>{member.name} </strong>}
          <span translate="no">{email}</span>
        </p>
        {changes ? (
          <div className="row-actions">
            <select aria-label={formatMessage(messages.roleOf, { email })} className="team-role" value={member.role} disabled={busy} onChange={(event) => void changeRole(event.target.value as MemberRole)}>
              {ROLES.map((role) => (
                <option key={role} value={role}>
                  {formatMessage(messages.role, { role })}
                </option>
              ))}
            </select>
            <ConfirmDialog
              trigger={
                <Button variant="secondary" aria-label={formatMessage(messages.removeNamed, { email })}>
                  {formatMessage(messages.remove)}
                </Button>
              }
              title={formatMessage(messages.removeTitle, { email })}
              description={formatMessage(messages.removeText)}
              confirmLabel={formatMessage(messages.remove)}
              onConfirm={remove}
            />
          </div>
        ) : (
          <span className="badge">{formatMessage(messages.role, { role: member.role })}</span>
        )}
      </div>
      {outcome && <Alert tone={outcome.tone}>{outcome.text}</Alert>}
    </li>
  );
}

/** Where the API's refusals of a new member go on the form. */
const FIELD_OF: Record<string, keyof MemberForm> = { email: "email", name: "name", role: "role" };

function AddMemberDialog({ add }: { add: MemberChanges["add"] }) {
  const { formatMessage } = useIntl();
  const [open, setOpen] = useState(false);
  return (
    <div className="actions">
      <FormDialog open={open} onOpenChange={setOpen} trigger={<Button variant="secondary">{formatMessage(messages.add)}</Button>} title={formatMessage(messages.add)}>
        {open && <AddMemberForm add={add} onDone={() => setOpen(false)} />}
      </FormDialog>
    </div>
  );
}

function AddMemberForm({ add, onDone }: { add: MemberChanges["add"]; onDone: () => void }) {
  const { formatMessage } = useIntl();
  const [failure, setFailure] = useState<string | null>(null);
  const form = useForm<MemberForm, unknown, z.output<typeof memberForm>>({ resolver: zodResolver(memberForm), defaultValues: { email: "", name: "", role: "member" } });
  const { errors, isSubmitting } = form.formState;
  const submit = form.handleSubmit(async (values) => {
    setFailure(null);
    try {
      await add({ ...values, name: values.name || null });
    } catch (reason) {
      return setFailure(placeRefusals(reason, FIELD_OF, form.setError));
    }
    onDone();
  });
  return (
    <form className="form" onSubmit={(event) => void submit(event)} noValidate>
      <Field label={formatMessage(messages.email)} error={errors.email?.message}>
        {(ids) => <input {...ids} {...form.register("email")} type="email" autoComplete="off" />}
      </Field>
      <Field label={formatMessage(messages.name)} error={errors.name?.message}>
        {(ids) => <input {...ids} {...form.register("name")} autoComplete="off" />}
      </Field>
      <Field label={formatMessage(messages.roleLabel)} hint={formatMessage(messages.roleHint)} error={errors.role?.message}>
        {(ids) => (
          <select {...ids} {...form.register("role")}>
            {ADDED_ROLES.map((role) => (
              <option key={role} value={role}>
                {formatMessage(messages.role, { role })}
              </option>
            ))}
          </select>
        )}
      </Field>
      {failure && <Alert tone="error">{failure}</Alert>}
      <FormDialogActions cancelLabel={formatMessage(messages.cancel)} submitLabel={formatMessage(messages.save)} busy={isSubmitting} />
    </form>
  );
}
