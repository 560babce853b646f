import { useEffect, useRef, useState } from "react";
import { defineMessages, type MessageDescriptor, useIntl } from "react-intl";
import { type ApiError, describeError, errorCode, failureOf } from "../api/client";
import { Alert, Button } from "../ui/components";

const messages = defineMessages({
  signInWithPasskey: { id: "auth.passkey.signIn", defaultMessage: "Sign in with a passkey" },
  usePasskeyInstead: { id: "auth.passkey.instead", defaultMessage: "Use a passkey instead" },
});

/** The button's words where a passkey finishes a sign-in begun with a password. */
export const passkeyInstead = messages.usePasskeyInstead;

/** What the browser says when a passkey prompt is closed or replaced: the person chose, nothing failed. */
const CANCELLED = new Set(["AUTH_CANCELLED", "ERROR_CEREMONY_ABORTED"]);

/** better-auth's passkey sign-in; its client loads only when a passkey is used, as the password form's does. */
async function signInWithPasskey(autoFill: boolean): Promise<void> {
  const { authClient, viaAuth } = await import("../api/auth-client");
  await viaAuth(() => authClient.signIn.passkey({ autoFill }));
}

/**
 * Signs in with a passkey the browser offers. A passkey is two factors in itself (the device and its
 * lock), so it also stands in for a pending password sign-in's second step: its session replaces that one.
 */
export function PasskeySignInButton({ onSignedIn, label = messages.signInWithPasskey }: { onSignedIn: () => Promise<void>; label?: MessageDescriptor }) {
  const { formatMessage } = useIntl();
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<ApiError | null>(null);
  const signIn = async () => {
    setBusy(true);
    setFailure(null);
    try {
      await signInWithPasskey(false);
    } catch (reason) {
      setBusy(false);
      return setFailure(failureOf(reason));
    }
    await onSignedIn();
  };
  return (
    <div className="passkey-sign-in">
      <Button type="button" variant="secondary" busy={busy} onClick={() => void signIn()}>
        {formatMessage(label)}
      </Button>
      {failure && <Alert tone="error">{describeError(failure)}</Alert>}
    </div>
  );
}

/**
 * Conditional UI: where the browser can, a passkey sign-in waits in the background and the browser
 * offers the site's passkeys in the autofill of the field marked `autocomplete="username webauthn"`.
 * Returns a failure worth showing (a passkey that is not known here); a cancelled prompt is none.
 */
export function usePasskeyAutofill(onSignedIn: () => Promise<void>): ApiError | null {
  const [failure, setFailure] = useState<ApiError | null>(null);
  const signedIn = useRef(onSignedIn);
  signedIn.current = onSignedIn;
  useEffect(() => {
    let active = true;
    const offer = async () => {
      if (!(await window.PublicKeyCredential?.isConditionalMediationAvailable?.())) return;
      try {
        await signInWithPasskey(true);
      } catch (reason) {
        const failed = failureOf(reason);
        if (active && !CANCELLED.has(errorCode(failed) ?? "")) setFailure(failed);
        return;
      }
      if (active) await signedIn.current();
    };
    void offer();
    return () => {
      active = false;
    };
  }, []);
  return failure;
}
