import { zodResolver } from "@hookform/resolvers/zod";
import { useQuery } from "@tanstack/react-query";
import { useNavigate, useParams } from "@tanstack/react-router";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { defineMessages, useIntl } from "react-intl";
import { placeRefusals } from "../../forms/refusals";
import { Alert, Field } from "../../ui/components";
import { EditScreen, FormActions, NewScreen } from "../console-screens";
import { useSeller } from "../space";
import { FilterBuilder } from "./filter-builder";
import { emptyMeterForm, meterChangeOf, meterForm, meterFormOf, meterUpdateOf, refusalFields, type MeterForm } from "./form";
import { aggregationLabels } from "./labels";
import { AGGREGATIONS, type Meter } from "./meters-api";
import { meterQuery, useCreateMeter, useUpdateMeter } from "./queries";

const messages = defineMessages({
  newTitle: { id: "seller.meter.newTitle", defaultMessage: "New meter" },
  editTitle: { id: "seller.meter.editTitle", defaultMessage: "Edit meter" },
  intro: { id: "seller.meter.intro", defaultMessage: "A meter counts the usage events your system sends that pass its filter; usage prices and meter credits are billed by it." },
  name: { id: "seller.meter.name", defaultMessage: "Name" },
  nameHint: { id: "seller.meter.nameHint", defaultMessage: "Customers see it on their invoices and in their portal." },
  aggregation: { id: "seller.meter.aggregation", defaultMessage: "What it measures" },
  aggregationProperty: { id: "seller.meter.aggregationProperty", defaultMessage: "Metadata key measured" },
  aggregationPropertyHint: { id: "seller.meter.aggregationPropertyHint", defaultMessage: "Such as tokens or bytes: a number in each event's metadata (any value, for distinct values)." },
  create: { id: "seller.meter.create", defaultMessage: "Create meter" },
  save: { id: "seller.meter.save", defaultMessage: "Save changes" },
  cancel: { id: "seller.meter.cancel", defaultMessage: "Cancel" },
  loading: { id: "seller.meter.loading", defaultMessage: "Loading the meter…" },
});

function MeterEditor({ meter }: { meter?: Meter }) {
  const { formatMessage } = useIntl();
  const seller = useSeller();
  const navigate = useNavigate();
  const create = useCreateMeter();
  const update = useUpdateMeter();
  const [failure, setFailure] = useState<string | null>(null);
  const form = useForm<MeterForm>({ resolver: zodResolver(meterForm), defaultValues: meter ? meterFormOf(meter) : emptyMeterForm() });
  const { errors, isSubmitting } = form.formState;
  const aggregation = form.watch("aggregation");
  const submit = form.handleSubmit(async (values) => {
    setFailure(null);
    let saved: Meter;
    try {
      saved = await (meter ? update.mutateAsync({ id: meter.id, change: meterUpdateOf(values, meter) }) : create.mutateAsync({ organizationId: seller.id, change: meterChangeOf(values) }));
    } catch (reason) {
      return setFailure(placeRefusals(reason, refusalFields(values), form.setError));
    }
    await navigate({ to: "/$slug/meters/$meterId", params: { slug: seller.slug, meterId: saved.id } });
  });
  const toBack = () => (meter ? navigate({ to: "/$slug/meters/$meterId", params: { slug: seller.slug, meterId: meter.id } }) : navigate({ to: "/$slug/meters", params: { slug: seller.slug } }));
  return (
    <form className="card form" onSubmit={(event) => void submit(event)} noValidate>
      <Field label={formatMessage(messages.name)} hint={formatMessage(messages.nameHint)} error={errors.name?.message}>
        {(ids) => <input {...ids} {...form.register("name")} autoComplete="off" />}
      </Field>
      <FilterBuilder form={form} />
      <div className="field-row">
        <Field label={formatMessage(messages.aggregation)}>
          {(ids) => (
            <select {...ids} {...form.register("aggregation")}>
              {AGGREGATIONS.map((func) => (
                <option key={func} value={func}>
                  {formatMessage(aggregationLabels[func])}
                </option>
              ))}
            </select>
          )}
        </Field>
        {aggregation !== "count" && (
          <Field label={formatMessage(messages.aggregationProperty)} hint={formatMessage(messages.aggregationPropertyHint)} error={errors.aggregationProperty?.message}>
            {(ids) => <input {...ids} {...form.register("aggregationProperty")} autoComplete="off" spellCheck={false} />}
          </Field>
        )}
      </div>
      {failure && <Alert tone="error">{failure}</Alert>}
      <FormActions busy={isSubmitting} submit={formatMessage(meter ? messages.save : messages.create)} cancel={formatMessage(messages.cancel)} onCancel={() => void toBack()} />
    </form>
  );
}

export function NewMeterScreen() {
  const { formatMessage } = useIntl();
  return (
    <NewScreen title={formatMessage(messages.newTitle)} intro={formatMessage(messages.intro)}>
      <MeterEditor />
    </NewScreen>
  );
}

export function EditMeterScreen() {
  const { formatMessage } = useIntl();
  const { meterId } = useParams({ strict: false });
  const meter = useQuery(meterQuery(meterId ?? ""));
  return (
    <EditScreen title={formatMessage(messages.editTitle)} loading={messages.loading} loaded={meter} nameOf={(loaded) => loaded.name}>
      {(loaded) => <MeterEditor meter={loaded} />}
    </EditScreen>
  );
}
