import { useNavigate, useSearch } from "@tanstack/react-router";
import { useEffect, useState, type FormEvent } from "react";
import { defineMessage, defineMessages, useIntl } from "react-intl";
import { describeError, failureOf, request } from "../api/client";
import type { RequestBody } from "../api/wire";
import { Alert, Button, Card, Field } from "../ui/components";
import { portalRequest, storeToken, type PortalAccess } from "./api";
import { failureText } from "./failures";

const messages = defineMessages({
  title: { id: "portal.emailChange.title", defaultMessage: "E-mail address" },
  description: defineMessage<{ email: string }>({ id: "portal.emailChange.description", defaultMessage: "Receipts and notices go to {email}." }),
  newEmail: { id: "portal.emailChange.newEmail", defaultMessage: "New e-mail address" },
  submit: { id: "portal.emailChange.submit", defaultMessage: "Change e-mail" },
  sent: defineMessage<{ email: string }>({ id: "portal.emailChange.sent", defaultMessage: "We sent a link to {email}. Follow it within 30 minutes to use this address." }),
  linkFailed: { id: "portal.emailChange.linkFailed", defaultMessage: "This link to confirm your new e-mail address has expired or was already used. Ask for a new one in the portal." },
});

/** The customer asks to use another address; a link to confirm it goes there (`/email-update/request`). */
export function EmailChangeCard({ access, email }: { access: PortalAccess; email: string }) {
  const { formatMessage } = useIntl();
  const [newEmail, setNewEmail] = useState("");
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<{ tone: "error" | "success"; text: string } | null>(null);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setOutcome(null);
    try {
      await portalRequest(access, "customers/me/email-update/request", { method: "POST", body: { email: newEmail } satisfies RequestBody<"/v1/customer-portal/customers/me/email-update/request", "post"> });
      setOutcome({ tone: "success", text: formatMessage(messages.sent, { email: newEmail }) });
    } catch (reason) {
      setOutcome({ tone: "error", text: failureText(reason) });
    } finally {
      setBusy(false);
    }
  };
  return (
    <Card title={formatMessage(messages.title)} description={formatMessage(messages.description, { email })}>
      <form onSubmit={(event) => void submit(event)} noValidate>
        <Field label={formatMessage(messages.newEmail)}>{(ids) => <input {...ids} type="email" autoComplete="email" value={newEmail} onChange={(event) => setNewEmail(event.target.value)} required />}</Field>
        {outcome && <Alert tone={outcome.tone}>{outcome.text}</Alert>}
        <Button type="submit" busy={busy}>
          {formatMessage(messages.submit)}
        </Button>
      </form>
    </Card>
  );
}

/**
 * The link mailed to a new address (`/{slug}/portal?email_update_token=…`): followed, it confirms the
 * address and signs the customer in with the session it opens; the token leaves the address bar. What
 * went wrong, if anything, is returned for the page to say.
 */
export function useEmailUpdateLink(slug: string): string | null {
  const { formatMessage } = useIntl();
  const { email_update_token: token } = useSearch({ from: "/$slug/portal" });
  const navigate = useNavigate();
  const [problem, setProblem] = useState<string | null>(null);
  useEffect(() => {
    if (!token) return;
    const body = { token } satisfies RequestBody<"/v1/customer-portal/customers/me/email-update/verify", "post">;
    request<{ token: string }>("/v1/customer-portal/customers/me/email-update/verify", { method: "POST", body }).then(
      (verified) => storeToken(slug, verified.token),
      (reason: unknown) => setProblem(failureOf(reason).status === 401 ? formatMessage(messages.linkFailed) : describeError(failureOf(reason))),
    );
    void navigate({ to: "/$slug/portal", params: { slug }, search: {}, replace: true });
  }, [token, slug, navigate, formatMessage]);
  return problem;
}
