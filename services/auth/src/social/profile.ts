import type { Logger } from "@tollgate/kit";
import type { ProviderProfile, ProviderTokens } from "./providers/types.js";
import { providerFetch } from "./oauth2.js";
import type { ConfiguredProvider } from "./settings.js";

/**
 * The person as the provider describes them, from its ID token's claims and profile endpoints; null
 * when the provider would not say (a failed call, an answer of the wrong shape).
 */
export async function fetchProfile(
  logger: Logger,
  provider: ConfiguredProvider,
  tokens: Pick<ProviderTokens, "accessToken">,
  claims: Record<string, unknown> | null,
  appleUser: string | null = null,
): Promise<ProviderProfile | null> {
  try {
    return await provider.definition.profile({
      endpoints: provider.endpoints,
      claims,
      clientId: provider.clientId,
      accessToken: tokens.accessToken,
      appleUser,
      fetchJson: (url, init = {}) =>
        providerFetch(provider, url, {
          method: init.method,
          headers: tokens.accessToken ? { authorization: `Bearer ${tokens.accessToken}` } : {},
          body: init.form ? new URLSearchParams(init.form) : undefined,
        }),
    });
  } catch (error) {
    // The message names the provider and status or the field that did not fit, never a token.
    logger.warn({ provider: provider.definition.id, reason: error instanceof Error ? error.message : String(error) }, "could not get the profile from the provider");
    return null;
  }
}
