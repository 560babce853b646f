import { zodResolver } from "@hookform/resolvers/zod";
import { useQuery } from "@tanstack/react-query";
import { useNavigate, useParams } from "@tanstack/react-router";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { defineMessages, useIntl } from "react-intl";
import { benefitChangeOf, benefitForm, benefitFormOf, emptyBenefitForm, type BenefitForm } from "./form";
import { placeRefusals } from "../../forms/refusals";
import { Alert, Field } from "../../ui/components";
import { EditScreen, FormActions, NewScreen } from "../console-screens";
import { useSeller } from "../space";
import { BENEFIT_TYPES, CREATABLE_TYPES, type Benefit, type CreatableType } from "./benefits-api";
import { benefitQuery, useCreateBenefit, useUpdateBenefit } from "./queries";
import { DownloadableFields, LicenseKeyFields, MeterCreditFields, NoteFields } from "./benefit-properties";
import { benefitTypeLabels } from "./benefit-type-label";

const messages = defineMessages({
  newTitle: { id: "seller.benefit.newTitle", defaultMessage: "New benefit" },
  editTitle: { id: "seller.benefit.editTitle", defaultMessage: "Edit benefit" },
  intro: { id: "seller.benefit.intro", defaultMessage: "Customers get it when they buy a product that grants it." },
  type: { id: "seller.benefit.type", defaultMessage: "Type" },
  connectionNeeded: { id: "seller.benefit.connectionNeeded", defaultMessage: "Discord and GitHub benefits need your Discord server or GitHub account connected, which this console cannot do yet: make them through the API." },
  description: { id: "seller.benefit.description", defaultMessage: "Description" },
  descriptionHint: { id: "seller.benefit.descriptionHint", defaultMessage: "What customers see, in 3 to 42 characters." },
  create: { id: "seller.benefit.create", defaultMessage: "Create benefit" },
  save: { id: "seller.benefit.save", defaultMessage: "Save changes" },
  cancel: { id: "seller.benefit.cancel", defaultMessage: "Cancel" },
  loading: { id: "seller.benefit.loading", defaultMessage: "Loading the benefit…" },
});

/** Where the API's refusals go on the form. */
const FIELD_OF: Record<string, keyof BenefitForm> = {
  description: "description",
  "properties.note": "note",
  "properties.prefix": "prefix",
  "properties.expires.ttl": "ttl",
  "properties.activations.limit": "activationLimit",
  "properties.limit_usage": "limitUsage",
  "properties.files": "files",
  "properties.meter_id": "meterId",
  "properties.units": "units",
};

const isCreatable = (type: Benefit["type"]): type is CreatableType => (CREATABLE_TYPES as readonly string[]).includes(type);

/** A benefit's form: its type (only when new), description and the type's own settings. */
function BenefitEditor({ benefit }: { benefit?: Benefit }) {
  const { formatMessage } = useIntl();
  const seller = useSeller();
  const navigate = useNavigate();
  const create = useCreateBenefit();
  const update = useUpdateBenefit();
  const [failure, setFailure] = useState<string | null>(null);
  const form = useForm<BenefitForm>({ resolver: zodResolver(benefitForm), defaultValues: benefit ? benefitFormOf(benefit) : emptyBenefitForm() });
  const { errors, isSubmitting } = form.formState;
  const type = form.watch("type");
  const toList = () => navigate({ to: "/$slug/benefits", params: { slug: seller.slug } });
  const submit = form.handleSubmit(async (values) => {
    const change = benefitChangeOf(values);
    try {
      await (benefit ? update.mutateAsync({ id: benefit.id, change }) : create.mutateAsync({ organizationId: seller.id, change }));
    } catch (reason) {
      return setFailure(placeRefusals(reason, FIELD_OF, form.setError));
    }
    await toList();
  });
  return (
    <form className="card form" onSubmit={(event) => void submit(event)} noValidate>
      {!benefit && (
        <Field label={formatMessage(messages.type)} hint={formatMessage(messages.connectionNeeded)}>
          {(ids) => (
            <select {...ids} {...form.register("type")}>
              {BENEFIT_TYPES.map((option) => (
                <option key={option} value={option} disabled={!isCreatable(option)}>
                  {formatMessage(benefitTypeLabels[option])}
                </option>
              ))}
            </select>
          )}
        </Field>
      )}
      <Field label={formatMessage(messages.description)} hint={formatMessage(messages.descriptionHint)} error={errors.description?.message}>
        {(ids) => <input {...ids} {...form.register("description")} autoComplete="off" />}
      </Field>
      {type === "custom" && <NoteFields form={form} />}
      {type === "license_keys" && <LicenseKeyFields form={form} />}
      {type === "downloadables" && <DownloadableFields form={form} organizationId={seller.id} />}
      {type === "meter_credit" && <MeterCreditFields form={form} organizationId={seller.id} />}
      {failure && <Alert tone="error">{failure}</Alert>}
      <FormActions busy={isSubmitting} submit={formatMessage(benefit ? messages.save : messages.create)} cancel={formatMessage(messages.cancel)} onCancel={() => void toList()} />
    </form>
  );
}

export function NewBenefitScreen() {
  const { formatMessage } = useIntl();
  return (
    <NewScreen title={formatMessage(messages.newTitle)} intro={formatMessage(messages.intro)}>
      <BenefitEditor />
    </NewScreen>
  );
}

/** An existing benefit to change; Discord and GitHub ones are only described (they need a connection). */
export function EditBenefitScreen() {
  const { formatMessage } = useIntl();
  const { id } = useParams({ strict: false });
  const benefit = useQuery(benefitQuery(id ?? ""));
  return (
    <EditScreen title={formatMessage(messages.editTitle)} loading={messages.loading} loaded={benefit} nameOf={(loaded) => loaded.description}>
      {(loaded) => (isCreatable(loaded.type) ? <BenefitEditor benefit={loaded} /> : <Alert tone="info">{formatMessage(messages.connectionNeeded)}</Alert>)}
    </EditScreen>
  );
}
