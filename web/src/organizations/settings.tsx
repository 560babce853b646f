import { zodResolver } from "@hookform/resolvers/zod";
import { useQueryClient } from "@tanstack/react-query";
import { useNavigate } from "@tanstack/react-router";
import { useEffect, useState } from "react";
import { useForm } from "react-hook-form";
import { defineMessage, defineMessages, useIntl } from "react-intl";
import { authClient, viaAuth } from "../api/auth-client";
import { describeFailure, failureIn, failureOf } from "../api/client";
import { organizationForm, slug as slugRule, type OrganizationForm } from "./form";
import { parseMetadata } from "../forms/metadata";
import { slugify } from "../forms/slugify";
import { RequireSession } from "../shell";
import { Alert, Button, Card, Field, Page } from "../ui/components";
import { outcomeOf } from "../ui/outcome";
import { ConfirmDialog } from "../ui/confirm-dialog";
import { Gated } from "./organization";
import type { FullOrganization } from "./queries";
import { permission } from "./permissions";

const messages = defineMessages({
  checking: { id: "organizations.slug.checking", defaultMessage: "Checking whether it is free…" },
  free: { id: "organizations.slug.free", defaultMessage: "That address is free." },
  checkFailed: { id: "organizations.slug.checkFailed", defaultMessage: "Could not check it now; it is checked again when you save." },
  taken: { id: "organizations.slug.taken", defaultMessage: "That address is taken; choose another." },
  name: { id: "organizations.field.name", defaultMessage: "Name" },
  slug: { id: "organizations.field.slug", defaultMessage: "Address (slug)" },
  slugHint: { id: "organizations.field.slugHint", defaultMessage: "Lower-case letters, digits and hyphens." },
  logo: { id: "organizations.field.logo", defaultMessage: "Logo address" },
  logoHint: { id: "organizations.field.logoHint", defaultMessage: "A link to an image, or nothing." },
  metadata: { id: "organizations.field.metadata", defaultMessage: "Metadata (JSON)" },
  metadataHint: defineMessage<{ example: string }>({ id: "organizations.field.metadataHint", defaultMessage: "Optional, for your own use, e.g. {example}." }),
  newTitle: { id: "organizations.new.title", defaultMessage: "New organization" },
  newDescription: { id: "organizations.new.description", defaultMessage: "An organization has members, invitations and teams, and sells through its own billing." },
  aboutIt: { id: "organizations.new.about", defaultMessage: "About it" },
  create: { id: "organizations.new.submit", defaultMessage: "Create organization" },
  saved: { id: "organizations.settings.saved", defaultMessage: "Settings saved." },
  settings: { id: "organizations.settings.title", defaultMessage: "Settings" },
  save: { id: "organizations.settings.submit", defaultMessage: "Save settings" },
  deleteTrigger: { id: "organizations.delete.trigger", defaultMessage: "Delete organization…" },
  deleteTitle: defineMessage<{ name: string }>({ id: "organizations.delete.title", defaultMessage: "Delete {name}?" }),
  deleteText: { id: "organizations.delete.text", defaultMessage: "Its members, invitations and teams go with it. This cannot be undone." },
  deleteConfirm: { id: "organizations.delete.confirm", defaultMessage: "Delete organization" },
});

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
      void viaAuth(() => authClient.organization.checkSlug({ slug: candidate })).then(
        (result) => current && setAvailability(result.status ? "free" : "taken"),
        (reason: unknown) => current && setAvailability(failureOf(reason).status === 400 ? "taken" : "error"),
      );
    }, 350);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [candidate, unchangedFrom]);
  return availability;
}

const AVAILABILITY_TEXT: Record<Availability, "slugHint" | "checking" | "free" | "checkFailed"> = {
  unchecked: "slugHint",
  checking: "checking",
  free: "free",
  taken: "slugHint",
  error: "checkFailed",
};

function OrganizationFields({ form, availability }: { form: ReturnType<typeof useForm<OrganizationForm>>; availability: Availability }) {
  const { formatMessage } = useIntl();
  const { errors } = form.formState;
  const slugError = errors.slug?.message ?? (availability === "taken" ? formatMessage(messages.taken) : undefined);
  return (
    <>
      <Field label={formatMessage(messages.name)} error={errors.name?.message}>
        {(ids) => <input {...ids} {...form.register("name")} />}
      </Field>
      <Field label={formatMessage(messages.slug)} hint={formatMessage(messages[AVAILABILITY_TEXT[availability]])} error={slugError}>
        {(ids) => <input {...ids} {...form.register("slug")} />}
      </Field>
      <Field label={formatMessage(messages.logo)} hint={formatMessage(messages.logoHint)} error={errors.logo?.message}>
        {(ids) => <input {...ids} {...form.register("logo")} type="url" />}
      </Field>
      <Field label={formatMessage(messages.metadata)} hint={formatMessage(messages.metadataHint, { example: '{"plan": "pro"}' })} error={errors.metadata?.message}>
        {(ids) => <textarea {...ids} {...form.register("metadata")} rows={3} />}
      </Field>
    </>
  );
}

export function CreateOrganizationScreen() {
  const { formatMessage } = useIntl();
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
    const failure = await failureIn(
      viaAuth(() => authClient.organization.create({ name: values.name, slug: values.slug, ...(values.logo ? { logo: values.logo } : {}), metadata: parseMetadata(values.metadata) })),
    );
    if (failure !== null) return setFailure(failure);
    await queryClient.invalidateQueries();
    // Selling is a new organization's front door: its console, which starts with the steps to a first sale.
    await navigate({ to: "/$slug", params: { slug: values.slug } });
  });
  return (
    <RequireSession>
      {() => (
        <Page title={formatMessage(messages.newTitle)} description={formatMessage(messages.newDescription)}>
          <Card title={formatMessage(messages.aboutIt)}>
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
                {formatMessage(messages.create)}
              </Button>
            </form>
          </Card>
        </Page>
      )}
    </RequireSession>
  );
}

export function SettingsCard({ organization, role }: { organization: FullOrganization; role: string | undefined }) {
  const { formatMessage } = useIntl();
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
    const result = await outcomeOf(
      viaAuth(() =>
        authClient.organization.update({
          organizationId: organization.id,
          data: { name: values.name, slug: values.slug, logo: values.logo || undefined, metadata: parseMetadata(values.metadata) },
        }),
      ),
      formatMessage(messages.saved),
    );
    setOutcome(result);
    if (result?.tone === "error") return;
    await queryClient.invalidateQueries();
    // The card is in the console's settings too: the console at the new address, on this card's section.
    if (values.slug !== organization.slug) await navigate({ to: "/$slug/settings", params: { slug: values.slug }, search: { tab: "organization" } });
  });
  const remove = async () => {
    try {
      await viaAuth(() => authClient.organization.delete({ organizationId: organization.id }));
    } catch (reason) {
      setOutcome({ tone: "error", text: describeFailure(reason) });
      return false;
    }
    await queryClient.invalidateQueries();
    await navigate({ to: "/" });
    return true;
  };
  return (
    <Card title={formatMessage(messages.settings)}>
      <form onSubmit={(event) => void submit(event)} noValidate>
        <fieldset disabled={!update.allowed} className="plain">
          <OrganizationFields form={form} availability={availability} />
        </fieldset>
        {!update.allowed && <p className="hint">{update.reason}</p>}
        {outcome && <Alert tone={outcome.tone}>{outcome.text}</Alert>}
        <div className="actions">
          <Button type="submit" busy={form.formState.isSubmitting} disabled={!update.allowed || availability === "taken"}>
            {formatMessage(messages.save)}
          </Button>
          <Gated role={role} action="delete">
            {(disabled) => (
              <ConfirmDialog
                trigger={
                  <Button variant="danger" disabled={disabled}>
                    {formatMessage(messages.deleteTrigger)}
                  </Button>
                }
                title={formatMessage(messages.deleteTitle, { name: organization.name })}
                description={formatMessage(messages.deleteText)}
                confirmLabel={formatMessage(messages.deleteConfirm)}
                onConfirm={remove}
              />
            )}
          </Gated>
        </div>
      </form>
    </Card>
  );
}
