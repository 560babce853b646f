import { zodResolver } from "@hookform/resolvers/zod";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { defineMessage, defineMessages, useIntl } from "react-intl";
import * as z from "zod/mini";
import { describeFailure } from "../api/client";
import { email, required } from "../forms/schemas";
import { Alert, Button, Field } from "../ui/components";
import { customerChoicesIn, portalTokenFor, requestPortalCode, type CustomerChoice, type PortalAccess } from "./api";
import { sessionEnded } from "./failures";

const messages = defineMessages({
  lead: { id: "portal.signIn.lead", defaultMessage: "Sign in with the e-mail address you bought with: we send a code there for you to enter here." },
  email: { id: "portal.signIn.email", defaultMessage: "E-mail address" },
  send: { id: "portal.signIn.send", defaultMessage: "Send me a code" },
  sent: defineMessage<{ email: string; seller: string }>({
    id: "portal.signIn.sent",
    defaultMessage: "If {email} bought from {seller}, a code is on its way there. It works for 15 minutes.",
  }),
  sentAgain: { id: "portal.signIn.sentAgain", defaultMessage: "A new code is on its way. Only the newest code works." },
  code: { id: "portal.signIn.code", defaultMessage: "Code" },
  codeHint: { id: "portal.signIn.codeHint", defaultMessage: "Eight letters and digits, from the mail." },
  codeRequired: { id: "portal.signIn.codeRequired", defaultMessage: "Enter the code from the mail." },
  submit: { id: "portal.signIn.submit", defaultMessage: "Sign in" },
  sendAgain: { id: "portal.signIn.sendAgain", defaultMessage: "Send a new code" },
  otherEmail: { id: "portal.signIn.otherEmail", defaultMessage: "Use another e-mail address" },
  whichCustomer: { id: "portal.signIn.whichCustomer", defaultMessage: "This address belongs to more than one customer here. Which one do you want to sign in as?" },
  unnamedCustomer: { id: "portal.signIn.unnamedCustomer", defaultMessage: "A customer without a name" },
});

const emailForm = z.object({ email });
const codeForm = z.object({ code: required(messages.codeRequired) });

type Outcome = { tone: "error" | "success" | "info"; text: string } | null;

/** Where a code goes: the address, and which customer it signs in as when the address is several's. */
interface CodeTarget {
  email: string;
  customerId: string | null;
}

/** The first step: the e-mail address a code is sent to, and, when it signs in as several customers, which one. */
function EmailStep({ seller, ended, onSent }: { seller: PortalAccess["seller"]; ended: boolean; onSent: (target: CodeTarget) => void }) {
  const { formatMessage } = useIntl();
  const [failure, setFailure] = useState<string | null>(null);
  const [choices, setChoices] = useState<CustomerChoice[] | null>(null);
  const [chosen, setChosen] = useState<string | null>(null);
  const form = useForm<z.infer<typeof emailForm>>({ resolver: zodResolver(emailForm), defaultValues: { email: "" } });
  const { errors, isSubmitting } = form.formState;
  const submit = form.handleSubmit(async (values) => {
    setFailure(null);
    const target = { email: values.email, customerId: choices ? chosen : null };
    try {
      await requestPortalCode(seller, target.email, target.customerId);
    } catch (reason) {
      const offered = customerChoicesIn(reason);
      if (offered) setChoices(offered);
      else setFailure(describeFailure(reason));
      return;
    }
    onSent(target);
  });
  return (
    <form onSubmit={(event) => void submit(event)} noValidate>
      {ended && <Alert tone="info">{formatMessage(sessionEnded)}</Alert>}
      <p>{formatMessage(messages.lead)}</p>
      <Field label={formatMessage(messages.email)} error={errors.email?.message}>
        {(ids) => <input {...ids} {...form.register("email", { onChange: () => setChoices(null) })} type="email" autoComplete="email" inputMode="email" />}
      </Field>
      {choices && (
        <fieldset>
          <legend>{formatMessage(messages.whichCustomer)}</legend>
          {choices.map((choice) => (
            <label key={choice.id} className="checkbox">
              <input type="radio" name="customer" value={choice.id} checked={chosen === choice.id} onChange={() => setChosen(choice.id)} /> {choice.name ?? formatMessage(messages.unnamedCustomer)}
            </label>
          ))}
        </fieldset>
      )}
      {failure && <Alert tone="error">{failure}</Alert>}
      <Button type="submit" busy={isSubmitting} disabled={choices !== null && chosen === null}>
        {formatMessage(messages.send)}
      </Button>
    </form>
  );
}

/** The second step: the code from the mail, with a way to have another sent or to go back. */
function CodeStep({ seller, sentTo, onBack, onSignedIn }: { seller: PortalAccess["seller"]; sentTo: CodeTarget; onBack: () => void; onSignedIn: (token: string) => void }) {
  const { formatMessage } = useIntl();
  const [outcome, setOutcome] = useState<Outcome>({ tone: "info", text: formatMessage(messages.sent, { email: sentTo.email, seller: seller.name }) });
  const [resending, setResending] = useState(false);
  const form = useForm<z.infer<typeof codeForm>>({ resolver: zodResolver(codeForm), defaultValues: { code: "" } });
  const { errors, isSubmitting } = form.formState;
  const submit = form.handleSubmit(async (values) => {
    try {
      onSignedIn(await portalTokenFor(values.code));
    } catch (reason) {
      setOutcome({ tone: "error", text: describeFailure(reason) });
    }
  });
  const sendAgain = async () => {
    setResending(true);
    try {
      await requestPortalCode(seller, sentTo.email, sentTo.customerId);
      setOutcome({ tone: "success", text: formatMessage(messages.sentAgain) });
    } catch (reason) {
      setOutcome({ tone: "error", text: describeFailure(reason) });
    }
    setResending(false);
  };
  return (
    <form onSubmit={(event) => void submit(event)} noValidate>
      {outcome && <Alert tone={outcome.tone}>{outcome.text}</Alert>}
      <Field label={formatMessage(messages.code)} hint={formatMessage(messages.codeHint)} error={errors.code?.message}>
        {(ids) => <input {...ids} {...form.register("code")} autoComplete="one-time-code" autoCapitalize="characters" spellCheck={false} className="code-input" />}
      </Field>
      <div className="actions">
        <Button type="submit" busy={isSubmitting}>
          {formatMessage(messages.submit)}
        </Button>
        <Button type="button" variant="secondary" busy={resending} onClick={() => void sendAgain()}>
          {formatMessage(messages.sendAgain)}
        </Button>
        <Button type="button" variant="secondary" onClick={onBack}>
          {formatMessage(messages.otherEmail)}
        </Button>
      </div>
    </form>
  );
}

/**
 * Signing in to a seller's portal without a link from them, as Polar's portal does: a code mailed
 * to the address the customer bought with, typed in here. `ended` says a session just ran out.
 */
export function PortalSignIn({ seller, ended, onSignedIn }: { seller: PortalAccess["seller"]; ended: boolean; onSignedIn: (token: string) => void }) {
  const [sentTo, setSentTo] = useState<CodeTarget | null>(null);
  return sentTo ? <CodeStep seller={seller} sentTo={sentTo} onBack={() => setSentTo(null)} onSignedIn={onSignedIn} /> : <EmailStep seller={seller} ended={ended} onSent={setSentTo} />;
}
