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
