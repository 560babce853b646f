import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { defineMessages, useIntl } from "react-intl";
import { type ApiError, describeError, failureOf } from "../api/client";
import { socialProvidersQuery } from "./queries";
import { Alert, Button } from "../ui/components";

const messages = defineMessages({
  signInWith: { id: "auth.social.signInWith", defaultMessage: "or sign in with" },
  signUpWith: { id: "auth.social.signUpWith", defaultMessage: "or sign up with" },
});

/** The providers the server has configured (Tollgate's own endpoint); none when it cannot tell. */
export function useSocialProviders() {
  return useQuery(socialProvidersQuery);
}

/** One button per configured provider; each starts better-auth's redirect flow. */
export function SocialButtons({ mode, callbackURL = "/" }: { mode: "sign-in" | "sign-up"; callbackURL?: string }) {
  const { data: providers = [] } = useSocialProviders();
  const { formatMessage } = useIntl();
  const [starting, setStarting] = useState<string | null>(null);
  const [error, setError] = useState<ApiError | null>(null);
  if (providers.length === 0) return null;
  const start = async (provider: string) => {
    setStarting(provider);
    setError(null);
    const { authClient, viaAuth } = await import("../api/auth-client");
    try {
      await viaAuth(() => authClient.signIn.social({ provider, callbackURL, errorCallbackURL: "/auth-error", newUserCallbackURL: callbackURL, requestSignUp: mode === "sign-up" }));
    } catch (reason) {
      // On success the client sends the browser to the provider; only a failure comes back here.
      setError(failureOf(reason));
      setStarting(null);
    }
  };
  return (
    <div className="social">
      <p className="divider">
        <span>{formatMessage(mode === "sign-in" ? messages.signInWith : messages.signUpWith)}</span>
      </p>
      <div className="social-buttons">
        {providers.map((provider) => (
          <Button key={provider.id} variant="secondary" busy={starting === provider.id} disabled={starting !== null} onClick={() => void start(provider.id)}>
            {provider.name}
          </Button>
        ))}
      </div>
      {error && <Alert tone="error">{describeError(error)}</Alert>}
    </div>
  );
}
