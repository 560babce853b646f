import { env } from "@tollgate/kit";
import type { z } from "zod";
import { PROVIDERS, SOCIAL_PROVIDER_IDS, type SocialProviderId } from "./providers/index.js";
import type { ProviderDefinition, ProviderEndpoints, ProviderSettings } from "./providers/types.js";

/** The endpoint overrides every provider takes, by the endpoint they replace. */
const ENDPOINT_SETTINGS = {
  authorization: "AUTHORIZATION_URL",
  token: "TOKEN_URL",
  userInfo: "USERINFO_URL",
  emails: "EMAILS_URL",
  jwks: "JWKS_URL",
} as const satisfies Record<keyof ProviderEndpoints, string>;

type ProviderSetting = "CLIENT_ID" | "CLIENT_SECRET" | (typeof ENDPOINT_SETTINGS)[keyof typeof ENDPOINT_SETTINGS];
type ProviderSettingKey = `${Uppercase<SocialProviderId>}_${ProviderSetting}`;

const settingKey = (id: SocialProviderId, setting: ProviderSetting) => `${id.toUpperCase()}_${setting}` as ProviderSettingKey;

const isProviderId = (value: string): value is SocialProviderId => (SOCIAL_PROVIDER_IDS as readonly string[]).includes(value);
const providerList = () => env.list(`a comma-separated list of provider ids (${SOCIAL_PROVIDER_IDS.join(", ")})`, isProviderId);

/** `kid:base64` pairs, each key 32 bytes. */
const isEncryptionKey = (entry: string) => /^[\w-]+:/.test(entry) && Buffer.from(entry.slice(entry.indexOf(":") + 1), "base64").length === 32;

const providerFields = Object.fromEntries(
  SOCIAL_PROVIDER_IDS.flatMap((id) => [
    [settingKey(id, "CLIENT_ID"), env.string("a client id").optional()],
    [settingKey(id, "CLIENT_SECRET"), env.string("a client secret").optional()],
    ...Object.values(ENDPOINT_SETTINGS).map((setting) => [settingKey(id, setting), env.url(["http", "https"]).optional()]),
  ]),
) as Record<ProviderSettingKey, z.ZodOptional<z.ZodString>>;

/** What the auth service reads for social sign-in (see the README's "Social sign-in"). */
export const socialEnv = {
  ...providerFields,
  /** A self-hosted GitLab's address. */
  GITLAB_ISSUER: env.url(["http", "https"]).optional(),
  /** `common` (any account), `organizations`, `consumers`, or one tenant's id. */
  MICROSOFT_TENANT_ID: env.string("a tenant id, or common, organizations or consumers", "common"),
  /** The sign-in host; another for national clouds. */
  MICROSOFT_AUTHORITY: env.url(["http", "https"], "https://login.microsoftonline.com"),
  /** A native iOS app's bundle id, also accepted as the audience of Apple ID tokens. */
  APPLE_APP_BUNDLE_IDENTIFIER: env.string("a bundle identifier").optional(),
  /** Providers whose e-mail addresses are trusted enough to link to an existing user without their saying it is verified. */
  TRUSTED_PROVIDERS: providerList(),
  ACCOUNT_LINKING_ENABLED: env.boolean(true),
  /** Lets a signed-in user link an account whose address differs from theirs. */
  ACCOUNT_LINKING_ALLOW_DIFFERENT_EMAILS: env.boolean(false),
  /** Links to an existing user only when that user's own address is verified too, so nobody pre-registers someone else's. */
  ACCOUNT_LINKING_REQUIRE_LOCAL_EMAIL_VERIFIED: env.boolean(false),
  ALLOW_UNLINKING_ALL_ACCOUNTS: env.boolean(false),
  /** Providers that sign in existing users only. */
  SOCIAL_SIGN_UP_DISABLED: providerList(),
  /** Providers that sign up a new user only when the client asks for it (`requestSignUp`). */
  SOCIAL_SIGN_UP_ON_REQUEST_ONLY: providerList(),
  /** Keys for provider tokens and two-factor secrets at rest, newest first (`kid:base64 32 bytes`); derived from AUTH_SECRET when unset. */
  TOKEN_ENCRYPTION_KEYS: env.list("a comma-separated list of kid:base64 pairs, each key 32 bytes", isEncryptionKey),
};

type SocialConfig = z.output<z.ZodObject<typeof socialEnv>>;

/** A provider that is on: its definition with the credentials and endpoints configured for it. */
export interface ConfiguredProvider {
  definition: ProviderDefinition;
  clientId: string;
  clientSecret: string;
  endpoints: ProviderEndpoints;
  settings: ProviderSettings;
  /** Audiences accepted on its ID tokens. */
  audiences: string[];
  signUp: "always" | "on-request" | "never";
  trusted: boolean;
}

/** The providers whose client id and secret are both set, in the catalogue's order. */
export function configuredProviders(config: SocialConfig): ConfiguredProvider[] {
  return SOCIAL_PROVIDER_IDS.flatMap((id) => {
    const clientId = config[settingKey(id, "CLIENT_ID")];
    const clientSecret = config[settingKey(id, "CLIENT_SECRET")];
    if (!clientId || !clientSecret) return [];
    const definition = PROVIDERS[id];
    const settings: ProviderSettings =
      id === "gitlab" ? { issuer: config.GITLAB_ISSUER } : id === "microsoft" ? { issuer: config.MICROSOFT_AUTHORITY, tenant: config.MICROSOFT_TENANT_ID } : {};
    const endpoints = { ...definition.endpoints(settings) };
    for (const [endpoint, setting] of Object.entries(ENDPOINT_SETTINGS) as [keyof ProviderEndpoints, ProviderSetting][]) {
      const override = config[settingKey(id, setting)];
      if (override) endpoints[endpoint] = override;
    }
    const signUp = config.SOCIAL_SIGN_UP_DISABLED.includes(id) ? "never" : config.SOCIAL_SIGN_UP_ON_REQUEST_ONLY.includes(id) ? "on-request" : "always";
    const audiences = id === "apple" && config.APPLE_APP_BUNDLE_IDENTIFIER ? [clientId, config.APPLE_APP_BUNDLE_IDENTIFIER] : [clientId];
    return [{ definition, clientId, clientSecret, endpoints, settings, audiences, signUp, trusted: config.TRUSTED_PROVIDERS.includes(id) }];
  });
}
