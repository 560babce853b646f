import { z } from "zod";
import { isoTimestamp } from "@tollgate/kit";

/** Where the browser goes to sign in at the provider; with `redirect`, the answer's Location header says it too. */
export const ProviderRedirect = z.strictObject({ url: z.string(), redirect: z.boolean() });

/** A provider's account linked from an ID token: nowhere to go. */
export const SocialLinked = z.strictObject({ url: z.string(), status: z.boolean(), redirect: z.boolean() });

/** The providers this site offers sign-in with. */
export const SocialProviders = z.strictObject({ providers: z.array(z.strictObject({ id: z.string(), name: z.string() })) });

/** An access token to call the provider with, refreshed first when it was about to expire. */
export const ProviderAccessToken = z.strictObject({
  accessToken: z.string(),
  accessTokenExpiresAt: isoTimestamp().optional(),
  scopes: z.array(z.string()),
  idToken: z.string().optional(),
});

/** The tokens the provider gave on a refresh, stored on the account. */
export const RefreshedTokens = z.strictObject({
  accessToken: z.string().nullable(),
  refreshToken: z.string(),
  accessTokenExpiresAt: isoTimestamp().optional(),
  refreshTokenExpiresAt: isoTimestamp().optional(),
  scope: z.string().nullable().meta({ description: "Granted scopes, comma-separated" }),
  idToken: z.string().optional(),
  providerId: z.string(),
  accountId: z.string(),
});

/** Extra parameters a client may add to the authorization request (the flow's own are kept). */
const additionalParams = z.record(z.string(), z.string()).optional();

export const IdTokenSignIn = z.object({
  token: z.string(),
  nonce: z.string().optional(),
  accessToken: z.string().optional(),
  refreshToken: z.string().optional(),
  // Milliseconds since the epoch, up to the last moment a date can hold.
  expiresAt: z.number().min(0).max(8.64e15).optional(),
});

const redirectFields = {
  provider: z.string(),
  callbackURL: z.string().optional(),
  errorCallbackURL: z.string().optional(),
  scopes: z.array(z.string()).optional(),
  disableRedirect: z.boolean().optional(),
  loginHint: z.string().optional(),
  requestSignUp: z.boolean().optional(),
  additionalParams,
  additionalData: z.record(z.string(), z.unknown()).optional(),
};

/** What a provider's callback carries, in the query (or Apple's posted form). */
export const ProviderCallback = z.object({
  code: z.string().optional(),
  error: z.string().optional(),
  error_description: z.string().optional(),
  state: z.string().optional(),
  /** Apple's JSON with the person's name, on their first sign-in. */
  user: z.string().optional(),
  /** VK's device id, repeated in the code exchange. */
  device_id: z.string().optional(),
  iss: z.string().optional(),
});


export const SocialSignIn = z.object({ ...redirectFields, newUserCallbackURL: z.string().optional(), idToken: IdTokenSignIn.optional() });

export const SocialLink = z.object({ ...redirectFields, idToken: IdTokenSignIn.optional() });

/** A provider named in the path. */
export const ProviderIdParams = z.object({ id: z.string() });
