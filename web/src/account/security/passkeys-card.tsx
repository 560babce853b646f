import { zodResolver } from "@hookform/resolvers/zod";
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { defineMessage, defineMessages, useIntl } from "react-intl";
import { longDate } from "../../i18n/format";
import { Button, Card, Field } from "../../ui/components";
import { ConfirmDialog } from "../../ui/confirm-dialog";
import { outcomeOf, OutcomeAlert, type Outcome } from "../../ui/outcome";
import { QueryState } from "../../ui/query-state";
import { passkeysQuery, useAddPasskey, useDeletePasskey, useRenamePasskey, type Passkey } from "../queries";
import { passkeyNameForm, type PasskeyNameForm } from "./passkey-form";

const messages = defineMessages({
  title: { id: "account.passkeys.title", defaultMessage: "Passkeys" },
  description: { id: "account.passkeys.description", defaultMessage: "Sign in with your fingerprint, face or device PIN instead of a password." },
  loading: { id: "account.passkeys.loading", defaultMessage: "Loading your passkeys…" },
  none: { id: "account.passkeys.none", defaultMessage: "You have no passkeys yet." },
  unnamed: { id: "account.passkeys.unnamed", defaultMessage: "Passkey" },
  details: defineMessage<{ created: string; kind: string }>({ id: "account.passkeys.details", defaultMessage: "Added {created} · {kind}" }),
  synced: { id: "account.passkeys.synced", defaultMessage: "synced across your devices" },
  oneDevice: { id: "account.passkeys.oneDevice", defaultMessage: "kept on one device" },
  name: { id: "account.passkeys.name", defaultMessage: "Passkey name" },
  nameHint: { id: "account.passkeys.nameHint", defaultMessage: "So you can tell it apart, such as “Work laptop”." },
  add: { id: "account.passkeys.add", defaultMessage: "Add a passkey" },
  added: { id: "account.passkeys.added", defaultMessage: "Your passkey is added." },
  rename: { id: "account.passkeys.rename", defaultMessage: "Rename" },
  renamed: { id: "account.passkeys.renamed", defaultMessage: "Your passkey is renamed." },
  save: { id: "account.passkeys.save", defaultMessage: "Save" },
  cancel: { id: "account.passkeys.cancel", defaultMessage: "Cancel" },
  delete: { id: "account.passkeys.delete", defaultMessage: "Delete" },
  deleteTitle: defineMessage<{ name: string }>({ id: "account.passkeys.deleteTitle", defaultMessage: "Delete the passkey “{name}”?" }),
  deleteText: { id: "account.passkeys.deleteText", defaultMessage: "You can no longer sign in with it. Remove it from your device or password manager too." },
  deleted: { id: "account.passkeys.deleted", defaultMessage: "Your passkey is deleted." },
});

type Say = (outcome: Outcome) => void;

/** The account's passkeys: each with when it was added and whether it syncs; add, rename and delete them. */
export function PasskeysCard() {
  const { formatMessage } = useIntl();
  const passkeys = useQuery(passkeysQuery);
  const [outcome, setOutcome] = useState<Outcome>(null);
  return (
    <Card title={formatMessage(messages.title)} description={formatMessage(messages.description)}>
      <QueryState query={passkeys} loading={messages.loading} isEmpty={(list) => list.length === 0} empty={<p className="muted">{formatMessage(messages.none)}</p>}>
        {(list) => (
          <ul className="list">
            {list.map((passkey) => (
              <PasskeyRow key={passkey.id} passkey={passkey} say={setOutcome} />
            ))}
          </ul>
        )}
      </QueryState>
      <OutcomeAlert outcome={outcome} />
      <AddPasskeyForm say={setOutcome} />
    </Card>
  );
}

function PasskeyRow({ passkey, say }: { passkey: Passkey; say: Say }) {
  const { formatMessage } = useIntl();
  const [renaming, setRenaming] = useState(false);
  const remove = useDeletePasskey();
  const name = passkey.name || formatMessage(messages.unnamed);
  const kind = formatMessage(passkey.deviceType === "multiDevice" ? messages.synced : messages.oneDevice);
  if (renaming) return <RenamePasskeyForm passkey={passkey} say={say} onDone={() => setRenaming(false)} />;
  return (
    <li className="list-row">
      <div>
        <strong>{name}</strong>
        <p className="muted">{formatMessage(messages.details, { created: longDate(passkey.createdAt), kind })}</p>
      </div>
      <div className="actions">
        <Button variant="secondary" onClick={() => setRenaming(true)}>
          {formatMessage(messages.rename)}
        </Button>
        <ConfirmDialog
          trigger={<Button variant="danger">{formatMessage(messages.delete)}</Button>}
          title={formatMessage(messages.deleteTitle, { name })}
          description={formatMessage(messages.deleteText)}
          confirmLabel={formatMessage(messages.delete)}
          onConfirm={async () => {
            const result = await outcomeOf(remove.mutateAsync(passkey.id), formatMessage(messages.deleted));
            say(result);
            return result?.tone === "success";
          }}
        />
      </div>
    </li>
  );
}

function RenamePasskeyForm({ passkey, say, onDone }: { passkey: Passkey; say: Say; onDone: () => void }) {
  const { formatMessage } = useIntl();
  const rename = useRenamePasskey();
  const form = useForm<PasskeyNameForm>({ resolver: zodResolver(passkeyNameForm), defaultValues: { name: passkey.name ?? "" } });
  const { errors, isSubmitting } = form.formState;
  const submit = form.handleSubmit(async ({ name }) => {
    const result = await outcomeOf(rename.mutateAsync({ id: passkey.id, name }), formatMessage(messages.renamed));
    say(result);
    if (result?.tone === "success") onDone();
  });
  return (
    <li className="list-row">
      <form onSubmit={(event) => void submit(event)} noValidate>
        <Field label={formatMessage(messages.name)} error={errors.name?.message}>
          {(ids) => <input {...ids} {...form.register("name")} />}
        </Field>
        <div className="actions">
          <Button type="submit" busy={isSubmitting}>
            {formatMessage(messages.save)}
          </Button>
          <Button type="button" variant="secondary" onClick={onDone}>
            {formatMessage(messages.cancel)}
          </Button>
        </div>
      </form>
    </li>
  );
}

function AddPasskeyForm({ say }: { say: Say }) {
  const { formatMessage } = useIntl();
  const add = useAddPasskey();
  const form = useForm<PasskeyNameForm>({ resolver: zodResolver(passkeyNameForm), defaultValues: { name: "" } });
  const { errors, isSubmitting } = form.formState;
  const submit = form.handleSubmit(async ({ name }) => {
    const result = await outcomeOf(add.mutateAsync(name), formatMessage(messages.added));
    say(result);
    if (result?.tone === "success") form.reset();
  });
  return (
    <form onSubmit={(event) => void submit(event)} noValidate>
      <Field label={formatMessage(messages.name)} hint={formatMessage(messages.nameHint)} error={errors.name?.message}>
        {(ids) => <input {...ids} {...form.register("name")} />}
      </Field>
      <Button type="submit" busy={isSubmitting}>
        {formatMessage(messages.add)}
      </Button>
    </form>
  );
}
