import { useQueryClient } from "@tanstack/react-query";
import { useNavigate } from "@tanstack/react-router";
import { type ReactNode, useState } from "react";
import { useForm } from "react-hook-form";
import { defineMessage, defineMessages, useIntl } from "react-intl";
import { type ApiError, describeError, failureOf } from "../api/client";
import { EMAIL_PATTERN } from "../forms/account-limits";
import { Alert, Button, Field } from "../ui/components";
import { authMessages } from "./auth-card";
import { ONE_TIME_CODE, oneTimeCodeMessages } from "./form";

const messages = defineMessages({
  orByEmail: { id: "auth.emailSignIn.orByEmail", defaultMessage: "or without a password" },
  sendLink: { id: "auth.emailSignIn.sendLink", defaultMessage: "E-mail me a sign-in link" },
  sendCode: { id: "auth.emailSignIn.sendCode", defaultMessage: "E-mail me a code" },
  emailFirst: { id: "auth.emailSignIn.emailFirst", defaultMessage: "Enter your e-mail address above first." },
  linkSent: defineMessage<{ email: string }>({ id: "auth.emailSignIn.linkSent", defaultMessage: "A sign-in link is on its way to {email}. It works once, for 5 minutes." }),
  codeSent: defineMessage<{ email: string }>({ id: "auth.emailSignIn.codeSent", defaultMessage: "We sent a 6-digit code to {email}. It works once, for 5 minutes." }),
  signIn: { id: "auth.emailSignIn.signIn", defaultMessage: "Sign in with the code" },
  otherWay: { id: "auth.emailSignIn.otherWay", defaultMessage: "Sign in another way" },
});

/** Where the e-mailed way stands: nothing sent yet, a link sent, or a code sent and awaited. */
type Step = { sent: "nothing" } | { sent: "link" | "code"; email: string };

/**
 * Signing in without a password: better-auth's magic link or e-mailed code, to the address typed in
 * the sign-in form (`email`). A link brings the browser back to `redirect`; a code is typed in here.
 * `alternatives` are the other ways without a password (a passkey), shown first under the same heading.
 */
export function EmailSignIn({ email, redirect, alternatives }: { email: string; redirect: string; alternatives?: ReactNode }) {
  const { formatMessage } = useIntl();
  const [step, setStep] = useState<Step>({ sent: "nothing" });
  const [sending, setSending] = useState<"link" | "code" | null>(null);
  const [failure, setFailure] = useState<ApiError | string | null>(null);

  const send = async (what: "link" | "code") => {
    const address = email.trim();
    if (!EMAIL_PATTERN.test(address)) return setFailure(formatMessage(messages.emailFirst));
    setFailure(null);
    setSending(what);
    const { authClient, viaAuth } = await import("../api/auth-client");
    try {
      await (what === "link"
        ? viaAuth(() => authClient.signIn.magicLink({ email: address, callbackURL: redirect, errorCallbackURL: "/auth-error" }))
        : viaAuth(() => authClient.emailOtp.sendVerificationOtp({ email: address, type: "sign-in" })));
      setStep({ sent: what, email: address });
    } catch (reason) {
      setFailure(failureOf(reason));
    } finally {
      setSending(null);
    }
  };

  const said = failure && <Alert tone="error">{typeof failure === "string" ? failure : describeError(failure)}</Alert>;
  if (step.sent === "code") {
    return (
      <CodeStep email={step.email} redirect={redirect} onNewCode={() => void send("code")} sending={sending === "code"} onBack={() => setStep({ sent: "nothing" })} />
    );
  }
  return (
    <div className="email-sign-in">
      <p className="divider">
        <span>{formatMessage(messages.orByEmail)}</span>
      </p>
      {alternatives}
      {step.sent === "link" && <Alert tone="success">{formatMessage(messages.linkSent, { email: step.email })}</Alert>}
      {said}
      <Button variant="secondary" busy={sending === "link"} disabled={sending !== null} onClick={() => void send("link")}>
        {formatMessage(messages.sendLink)}
      </Button>
      <Button variant="secondary" busy={sending === "code"} disabled={sending !== null} onClick={() => void send("code")}>
        {formatMessage(messages.sendCode)}
      </Button>
    </div>
  );
}

/** The code step: the 6 digits from the mail, a new code on request, or back to the other ways. */
function CodeStep({ email, redirect, onNewCode, sending, onBack }: { email: string; redirect: string; onNewCode: () => void; sending: boolean; onBack: () => void }) {
  const { formatMessage } = useIntl();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [failure, setFailure] = useState<ApiError | null>(null);
  const form = useForm<{ otp: string }>({ defaultValues: { otp: "" } });
  const { errors, isSubmitting } = form.formState;
  const submit = form.handleSubmit(async ({ otp }) => {
    setFailure(null);
    const { authClient, viaAuth } = await import("../api/auth-client");
    try {
      await viaAuth(() => authClient.signIn.emailOtp({ email, otp: otp.trim() }));
    } catch (reason) {
      return setFailure(failureOf(reason));
    }
    await queryClient.invalidateQueries();
    await navigate({ to: redirect });
  });
  const newCode = () => {
    setFailure(null);
    form.reset();
    onNewCode();
  };
  return (
    <form className="email-sign-in" onSubmit={(event) => void submit(event)} noValidate>
      <Alert tone="info">{formatMessage(messages.codeSent, { email })}</Alert>
      <Field label={formatMessage(authMessages.oneTimeCode)} error={errors.otp?.message}>
        {(ids) => (
          <input
            {...ids}
            {...form.register("otp", { validate: (otp) => ONE_TIME_CODE.test(otp.trim()) || formatMessage(oneTimeCodeMessages.invalid) })}
            inputMode="numeric"
            autoComplete="one-time-code"
            maxLength={6}
            className="code-input"
          />
        )}
      </Field>
      {failure && <Alert tone="error">{describeError(failure)}</Alert>}
      <Button type="submit" busy={isSubmitting} className="wide">
        {formatMessage(messages.signIn)}
      </Button>
      <div className="row-between">
        <Button variant="ghost" busy={sending} onClick={newCode}>
          {formatMessage(authMessages.resendCode)}
        </Button>
        <Button variant="ghost" onClick={onBack}>
          {formatMessage(messages.otherWay)}
        </Button>
      </div>
    </form>
  );
}
