import type { IdentityVerifier, Knex, Logger, SecretVault, ServiceContext, Units } from "@tollgate/kit";
import type { AuthConfig } from "./config.js";
import type { PasswordHasher } from "./credentials/passwords.js";
import type { MailQueue } from "./mail/mail-queue.js";
import type { SessionCookies } from "./sessions/session-cookie.js";
import type { ConfiguredProvider } from "./social/settings.js";

/** The parts auth's `setup` builds once when the service starts, for its endpoints, workers, consumers and responders. */
export interface Parts {
  config: AuthConfig;
  db: Knex;
  /** The one way to change state, announce it and act once it is committed. */
  units: Units;
  logger: Logger;
  /** Requests to other services over NATS (the organization service owns roles and permissions). */
  request: ServiceContext<AuthConfig>["request"];
  /** Checks gateway-signed identity tokens that bus requests carry as proof. */
  identity: IdentityVerifier;
  passwords: PasswordHasher;
  cookies: SessionCookies;
  mail: MailQueue;
  /** The social providers whose credentials are configured, by id. */
  providers: Map<string, ConfiguredProvider>;
  /** Seals provider tokens for storage. */
  vault: SecretVault;
  /** Seals two-factor secrets and backup codes for storage, with keys of its own purpose. */
  twoFactorVault: SecretVault;
}
