import { Link, useSearch } from "@tanstack/react-router";
import { defineMessage, defineMessages, FormattedMessage, type MessageTag, useIntl } from "react-intl";
import { authClient } from "../api/auth-client";
import { Alert } from "../ui/components";
import { AuthCard, authMessages } from "./auth-card";
import { describeFlowError } from "./messages";

const messages = defineMessages({
  linkFailed: { id: "auth.verified.failedTitle", defaultMessage: "That link did not work" },
  verifiedTitle: { id: "auth.verified.title", defaultMessage: "Your address is verified" },
  verified: { id: "auth.verified.text", defaultMessage: "Thank you — your e-mail address is confirmed." },
  goToAccount: { id: "auth.verified.goToAccount", defaultMessage: "Go to your account" },
  signIn: { id: "auth.verified.signIn", defaultMessage: "Sign in" },
  errorTitle: { id: "auth.error.title", defaultMessage: "We could not sign you in" },
  providerSaid: defineMessage<{ description: string }>({ id: "auth.error.providerSaid", defaultMessage: "The provider said: {description}" }),
  errorCode: defineMessage<{ errorCode: string; code: MessageTag }>({ id: "auth.error.code", defaultMessage: "Error code: <code>{errorCode}</code>" }),
});

/** Where the verification link lands: better-auth adds `error` when the link did not work. */
export function VerifiedScreen() {
  const search = useSearch({ from: "/verified" });
  const session = authClient.useSession();
  const { formatMessage } = useIntl();
  return (
    <AuthCard title={formatMessage(search.error ? messages.linkFailed : messages.verifiedTitle)}>
      {search.error ? <Alert tone="error">{describeFlowError(search.error)}</Alert> : <Alert tone="success">{formatMessage(messages.verified)}</Alert>}
      {session.data ? <Link to="/account">{formatMessage(messages.goToAccount)}</Link> : <Link to="/sign-in">{formatMessage(messages.signIn)}</Link>}
    </AuthCard>
  );
}

/** The friendly twin of the API's error page, for flows that come back with `?error=`. */
export function AuthErrorScreen() {
  const search = useSearch({ from: "/auth-error" });
  const { formatMessage } = useIntl();
  return (
    <AuthCard title={formatMessage(messages.errorTitle)} footer={<Link to="/sign-in">{formatMessage(authMessages.backToSignIn)}</Link>}>
      <Alert tone="error">{describeFlowError(search.error)}</Alert>
      {search.error_description && <p className="muted">{formatMessage(messages.providerSaid, { description: search.error_description })}</p>}
      {search.error && (
        <p className="muted">
          <FormattedMessage {...messages.errorCode} values={{ errorCode: search.error, code: (chunks) => <code translate="no">{chunks}</code> }} />
        </p>
      )}
    </AuthCard>
  );
}
