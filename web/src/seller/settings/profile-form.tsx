import { zodResolver } from "@hookform/resolvers/zod";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { defineMessage, defineMessages, useIntl } from "react-intl";
import { placeRefusals } from "../../forms/refusals";
import { sellerProfileForm, SOCIAL_PLATFORMS, type SellerProfileForm } from "./form";
import { Button, Card, Field } from "../../ui/components";
import { useSeller } from "../space";
import type { Outcome } from "../../ui/outcome";
import { SettingsFormFooter } from "./form-footer";
import type { Organization } from "./settings-api";
import { useOrganizationChange } from "./queries";

const messages = defineMessages({
  title: { id: "seller.settings.profile.title", defaultMessage: "Profile" },
  description: { id: "seller.settings.profile.description", defaultMessage: "Buyers see these on checkouts, receipts and the customer portal." },
  name: { id: "seller.settings.profile.name", defaultMessage: "Seller name" },
  email: { id: "seller.settings.profile.email", defaultMessage: "Support e-mail" },
  website: { id: "seller.settings.profile.website", defaultMessage: "Website" },
  terms: { id: "seller.settings.profile.terms", defaultMessage: "Terms of service address" },
  refunds: { id: "seller.settings.profile.refunds", defaultMessage: "Refund policy address" },
  policyHint: { id: "seller.settings.profile.policyHint", defaultMessage: "Linked from your checkouts, so buyers read it before paying." },
  avatar: { id: "seller.settings.profile.avatar", defaultMessage: "Avatar address" },
  avatarHint: { id: "seller.settings.profile.avatarHint", defaultMessage: "The address of a square image, starting with https://" },
  socials: { id: "seller.settings.profile.socials", defaultMessage: "Social profiles" },
  platform: { id: "seller.settings.profile.platform", defaultMessage: "Network" },
  platformName: defineMessage<{ platform: string }>({
    id: "seller.settings.profile.platformName",
    defaultMessage:
      "{platform, select, x {X} github {GitHub} facebook {Facebook} instagram {Instagram} youtube {YouTube} tiktok {TikTok} linkedin {LinkedIn} threads {Threads} discord {Discord} other {Other}}",
  }),
  profileUrl: { id: "seller.settings.profile.profileUrl", defaultMessage: "Profile address" },
  addSocial: { id: "seller.settings.profile.addSocial", defaultMessage: "Add a profile" },
  removeSocial: { id: "seller.settings.profile.removeSocial", defaultMessage: "Remove" },
  save: { id: "seller.settings.profile.save", defaultMessage: "Save profile" },
  saved: { id: "seller.settings.profile.saved", defaultMessage: "Profile saved." },
});

const FIELD_OF: Record<string, keyof SellerProfileForm> = { name: "name", email: "email", website: "website", terms_of_service_url: "termsUrl", refund_policy_url: "refundsUrl", avatar_url: "avatarUrl", socials: "socials" };

/** The seller's name, support e-mail, website, avatar and social profiles. */
export function ProfileForm({ organization }: { organization: Organization }) {
  const { formatMessage } = useIntl();
  const seller = useSeller();
  const change = useOrganizationChange(organization.id);
  const [outcome, setOutcome] = useState<Outcome>(null);
  const form = useForm<SellerProfileForm>({
    resolver: zodResolver(sellerProfileForm),
    values: { name: organization.name, email: organization.email ?? "", website: organization.website ?? "", termsUrl: organization.terms_of_service_url ?? "", refundsUrl: organization.refund_policy_url ?? "", avatarUrl: organization.avatar_url ?? "", socials: organization.socials },
  });
  // Rows kept in the form's own value rather than with useFieldArray, which would grow the bundle every page loads.
  const socials = form.watch("socials");
  const setSocials = (next: SellerProfileForm["socials"]) => form.setValue("socials", next, { shouldDirty: true });
  const { errors, isSubmitting } = form.formState;
  const submit = form.handleSubmit(async (values) => {
    try {
      await change({ name: values.name, email: values.email || null, website: values.website || null, terms_of_service_url: values.termsUrl || null, refund_policy_url: values.refundsUrl || null, avatar_url: values.avatarUrl || null, socials: values.socials });
    } catch (reason) {
      return setOutcome({ tone: "error", text: placeRefusals(reason, FIELD_OF, form.setError) ?? "" });
    }
    setOutcome({ tone: "success", text: formatMessage(messages.saved) });
  });
  return (
    <Card title={formatMessage(messages.title)} description={formatMessage(messages.description)}>
      <form className="form" onSubmit={(event) => void submit(event)} noValidate>
        <fieldset disabled={!seller.mayChange} className="plain">
          <Field label={formatMessage(messages.name)} error={errors.name?.message}>
            {(ids) => <input {...ids} {...form.register("name")} autoComplete="organization" />}
          </Field>
          <Field label={formatMessage(messages.email)} error={errors.email?.message}>
            {(ids) => <input {...ids} {...form.register("email")} type="email" autoComplete="email" />}
          </Field>
          <Field label={formatMessage(messages.website)} error={errors.website?.message}>
            {(ids) => <input {...ids} {...form.register("website")} type="url" autoComplete="url" />}
          </Field>
          <Field label={formatMessage(messages.terms)} hint={formatMessage(messages.policyHint)} error={errors.termsUrl?.message}>
            {(ids) => <input {...ids} {...form.register("termsUrl")} type="url" />}
          </Field>
          <Field label={formatMessage(messages.refunds)} hint={formatMessage(messages.policyHint)} error={errors.refundsUrl?.message}>
            {(ids) => <input {...ids} {...form.register("refundsUrl")} type="url" />}
          </Field>
          <Field label={formatMessage(messages.avatar)} hint={formatMessage(messages.avatarHint)} error={errors.avatarUrl?.message}>
            {(ids) => <input {...ids} {...form.register("avatarUrl")} type="url" />}
          </Field>
          <fieldset className="plain">
            <legend>{formatMessage(messages.socials)}</legend>
            {socials.map((_, index) => (
              <div key={index} className="field-row">
                <Field label={formatMessage(messages.platform)}>
                  {(ids) => (
                    <select {...ids} {...form.register(`socials.${index}.platform`)}>
                      {SOCIAL_PLATFORMS.map((platform) => (
                        <option key={platform} value={platform}>
                          {formatMessage(messages.platformName, { platform })}
                        </option>
                      ))}
                    </select>
                  )}
                </Field>
                <Field label={formatMessage(messages.profileUrl)} error={errors.socials?.[index]?.url?.message}>
                  {(ids) => <input {...ids} {...form.register(`socials.${index}.url`)} type="url" />}
                </Field>
                {seller.mayChange && (
                  <Button variant="ghost" onClick={() => setSocials(socials.filter((__, other) => other !== index))}>
                    {formatMessage(messages.removeSocial)}
                  </Button>
                )}
              </div>
            ))}
            {seller.mayChange && (
              <Button variant="secondary" onClick={() => setSocials([...socials, { platform: "x", url: "" }])}>
                {formatMessage(messages.addSocial)}
              </Button>
            )}
          </fieldset>
          <SettingsFormFooter outcome={outcome} busy={isSubmitting} save={formatMessage(messages.save)} />
        </fieldset>
      </form>
    </Card>
  );
}
