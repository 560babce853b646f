import { createAuthClient } from "better-auth/react";
import { adminClient, emailOTPClient, inferAdditionalFields, inferOrgAdditionalFields, magicLinkClient, organizationClient, twoFactorClient, usernameClient } from "better-auth/client/plugins";
import { apiKeyClient } from "@better-auth/api-key/client";
import { passkeyClient } from "@better-auth/passkey/client";
import { ApiFailure, fetchWithRetry, networkError } from "./client";
import { authKeys } from "../auth/queries";
import { queryClient } from "./query-client";

/**
 * better-auth's own React client, unchanged, fetching through the app's one client (with its retries).
 * `locale` is the user's saved language, an additional user field of Tollgate's.
 */
export const authClient = createAuthClient({
  baseURL: `${window.location.origin}/api/auth`,
  plugins: [
    usernameClient(),
    adminClient(),
    // `requireTwoFactor`: Tollgate's own organization field, which its owners set (organizations/two-factor.tsx).
    organizationClient({ teams: { enabled: true }, schema: inferOrgAdditionalFields({ organization: { additionalFields: { requireTwoFactor: { type: "boolean", required: false } } } }) }),
    // A sign-in that needs a second factor is answered, not redirected: the sign-in screen asks for it.
    twoFactorClient(),
    passkeyClient(),
    magicLinkClient(),
    emailOTPClient(),
    apiKeyClient(),
    inferAdditionalFields({ user: { locale: { type: "string", required: false } } }),
  ],
  fetchOptions: { customFetchImpl: (input, init) => fetchWithRetry(input, init) },
});

// The app reads the session through its own query (api/session.ts); whatever this client changes
// (a sign-in, a sign-out, a new name or language) reaches that query as it reaches better-auth's own.
authClient.$store.listen("$sessionSignal", () => void queryClient.invalidateQueries({ queryKey: authKeys.session }));

interface BetterAuthError {
  status: number;
  statusText: string;
  message?: string;
  code?: string;
}

/**
 * A better-auth client call as the app's other calls are: its data, or a rejection with an
 * ApiFailure whose failure is `{status, statusText, body: {code, message}}`.
 */
export async function viaAuth<T>(call: () => Promise<{ data: T | null; error: BetterAuthError | null }>): Promise<T> {
  let answer: { data: T | null; error: BetterAuthError | null };
  try {
    answer = await call();
  } catch (error) {
    throw new ApiFailure(networkError(error));
  }
  const { data, error } = answer;
  if (error) throw new ApiFailure({ status: error.status, statusText: error.statusText, body: { code: error.code, message: error.message } });
  return data as T;
}

export type Session = NonNullable<(typeof authClient)["$Infer"]["Session"]>;
