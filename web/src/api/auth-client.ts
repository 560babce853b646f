import { createAuthClient } from "better-auth/react";
import { adminClient, inferAdditionalFields, organizationClient, usernameClient } from "better-auth/client/plugins";
import { describeError, fetchWithRetry, networkError, type ApiError, type ApiResult } from "./client";

/**
 * better-auth's own React client, unchanged, fetching through the app's one client (with its retries).
 * `locale` is the user's saved language, an additional user field of Tollgate's.
 */
export const authClient = createAuthClient({
  baseURL: `${window.location.origin}/api/auth`,
  plugins: [usernameClient(), adminClient(), organizationClient({ teams: { enabled: true } }), inferAdditionalFields({ user: { locale: { type: "string", required: false } } })],
  fetchOptions: { customFetchImpl: (input, init) => fetchWithRetry(input, init) },
});

interface BetterAuthError {
  status: number;
  statusText: string;
  message?: string;
  code?: string;
}

/** A better-auth client call as an ApiResult: its error becomes `{status, statusText, body: {code, message}}`. */
export async function viaAuth<T>(call: () => Promise<{ data: T | null; error: BetterAuthError | null }>): Promise<ApiResult<T>> {
  try {
    const { data, error } = await call();
    if (error) {
      const failure: ApiError = { status: error.status, statusText: error.statusText, body: { code: error.code, message: error.message } };
      return { data: null, error: failure };
    }
    return { data: data as T, error: null };
  } catch (error) {
    return { data: null, error: networkError(error) };
  }
}

/** An ApiError as a rejection, for TanStack Query's queryFn and mutationFn, which expect one. */
export class ApiFailure extends Error {
  constructor(readonly failure: ApiError) {
    super(describeError(failure));
    this.name = "ApiFailure";
  }
}

export async function orThrow<T>(result: Promise<ApiResult<T>>): Promise<T> {
  const { data, error } = await result;
  if (error) throw new ApiFailure(error);
  return data;
}

// Every queryFn and mutationFn here rejects with an ApiFailure (see orThrow).
declare module "@tanstack/react-query" {
  interface Register {
    defaultError: ApiFailure;
  }
}

export type Session = NonNullable<(typeof authClient)["$Infer"]["Session"]>;
