import { trustedOrigins } from "@tollgate/kit";
import type { AuthConfig } from "../config.js";

/** Who passkeys are made for: the site at PUBLIC_URL (its host is the relying party's id), seen from any trusted origin. */
export function relyingParty(config: AuthConfig) {
  return {
    id: new URL(config.PUBLIC_URL).hostname,
    name: config.PASSKEY_RP_NAME,
    origins: [...trustedOrigins(config.PUBLIC_URL, config.TRUSTED_ORIGINS)],
  };
}
