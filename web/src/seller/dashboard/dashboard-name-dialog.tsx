import { zodResolver } from "@hookform/resolvers/zod";
import { useState, type ReactNode } from "react";
import { useForm } from "react-hook-form";
import { defineMessages, useIntl } from "react-intl";
import type { z } from "zod/mini";
import { placeRefusals } from "../../forms/refusals";
import { Alert, Field } from "../../ui/components";
import { FormDialog, FormDialogActions } from "../../ui/form-dialog";
import { dashboardNameForm, type DashboardNameForm } from "./form";

const messages = defineMessages({
  name: { id: "seller.dashboard.saved.name", defaultMessage: "Name" },
  save: { id: "seller.dashboard.saved.saveName", defaultMessage: "Save" },
  cancel: { id: "seller.dashboard.saved.cancel", defaultMessage: "Cancel" },
});

/** Where the API's refusals go on the form; a refused metric is said above the button. */
const FIELD_OF: Record<string, keyof DashboardNameForm> = { name: "name" };

/** A dialog asking for a dashboard's name, for saving a new one or renaming one; `save` rejects as the API call does. */
export function DashboardNameDialog({ trigger, title, name, save }: { trigger: ReactNode; title: string; name: string; save: (name: string) => Promise<unknown> }) {
  const [open, setOpen] = useState(false);
  return (
    <FormDialog open={open} onOpenChange={setOpen} trigger={trigger} title={title}>
      {open && <NameFields name={name} save={save} onDone={() => setOpen(false)} />}
    </FormDialog>
  );
}

function NameFields({ name, save, onDone }: { name: string; save: (name: string) => Promise<unknown>; onDone: () => void }) {
  const { formatMessage } = useIntl();
  const [failure, setFailure] = useState<string | null>(null);
  const form = useForm<DashboardNameForm, unknown, z.output<typeof dashboardNameForm>>({ resolver: zodResolver(dashboardNameForm), defaultValues: { name } });
  const { errors, isSubmitting } = form.formState;
  const submit = form.handleSubmit(async (values) => {
    setFailure(null);
    try {
      await save(values.name);
    } catch (reason) {
      return setFailure(placeRefusals(reason, FIELD_OF, form.setError));
    }
    onDone();
  });
  return (
    <form className="form" onSubmit={(event) => void submit(event)} noValidate>
      <Field label={formatMessage(messages.name)} error={errors.name?.message}>
        {(ids) => <input {...ids} {...form.register("name")} type="text" autoComplete="off" />}
      </Field>
      {failure && <Alert tone="error">{failure}</Alert>}
      <FormDialogActions cancelLabel={formatMessage(messages.cancel)} submitLabel={formatMessage(messages.save)} busy={isSubmitting} />
    </form>
  );
}
