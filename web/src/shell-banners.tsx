import { useQueryClient } from "@tanstack/react-query";
import { useNavigate } from "@tanstack/react-router";
import { useState } from "react";
import { defineMessage, defineMessages, FormattedMessage, type MessageTag } from "react-intl";
import { authClient, viaAuth, type Session } from "./api/auth-client";
import { type ApiError, describeError, failureOf } from "./api/client";
import { Button } from "./ui/components";

const messages = defineMessages({
  impersonating: defineMessage<{ name: string; email: string; strong: MessageTag }>({
    id: "shell.impersonation.notice",
    defaultMessage: "You are signed in as <strong>{name}</strong> ({email}) on behalf of an admin.",
  }),
  stopImpersonating: { id: "shell.impersonation.stop", defaultMessage: "Stop impersonating" },
  verificationSent: defineMessage<{ email: string }>({ id: "shell.verification.sent", defaultMessage: "We sent a verification link to {email}." }),
  unverified: { id: "shell.verification.notice", defaultMessage: "Your e-mail address is not verified yet." },
  sendVerification: { id: "shell.verification.send", defaultMessage: "Send verification link" },
});

/** Shown while an admin acts as someone else, with the way back. */
function ImpersonationBanner({ session }: { session: Session }) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [failure, setFailure] = useState<ApiError | null>(null);
  const [busy, setBusy] = useState(false);
  if (!session.session.impersonatedBy) return null;
  const stop = async () => {
    setBusy(true);
    try {
      await viaAuth(() => authClient.admin.stopImpersonating());
    } catch (reason) {
      return setFailure(failureOf(reason));
    } finally {
      setBusy(false);
    }
    await queryClient.invalidateQueries();
    await navigate({ to: "/admin/users" });
  };
  return (
    <div className="banner banner-warning" role="status">
      <FormattedMessage {...messages.impersonating} values={{ name: session.user.name, email: session.user.email, strong: (chunks) => <strong>{chunks}</strong> }} />
      <Button variant="secondary" busy={busy} onClick={() => void stop()}>
        <FormattedMessage {...messages.stopImpersonating} />
      </Button>
      {failure && <span className="field-error">{describeError(failure)}</span>}
    </div>
  );
}

function UnverifiedBanner({ session }: { session: Session }) {
  const [state, setState] = useState<"idle" | "sending" | "sent">("idle");
  const [failure, setFailure] = useState<ApiError | null>(null);
  if (session.user.emailVerified) return null;
  const send = async () => {
    setState("sending");
    try {
      await viaAuth(() => authClient.sendVerificationEmail({ email: session.user.email, callbackURL: "/verified" }));
    } catch (reason) {
      setFailure(failureOf(reason));
      return setState("idle");
    }
    setState("sent");
  };
  return (
    <div className="banner" role="status">
      {state === "sent" ? (
        <FormattedMessage {...messages.verificationSent} values={{ email: session.user.email }} />
      ) : (
        <>
          <FormattedMessage {...messages.unverified} />
          <Button variant="secondary" busy={state === "sending"} onClick={() => void send()}>
            <FormattedMessage {...messages.sendVerification} />
          </Button>
        </>
      )}
      {failure && <span className="field-error">{describeError(failure)}</span>}
    </div>
  );
}

/** What the shell says to a signed-in person under its header: whom an admin acts as, an address to verify. */
export function SessionBanners({ session }: { session: Session }) {
  return (
    <>
      <ImpersonationBanner session={session} />
      <UnverifiedBanner session={session} />
    </>
  );
}
