import { type Migrations } from "@tollgate/kit";
import { usersAccountsSessions } from "./0001_users_accounts_sessions.js";
import { mails } from "./0002_mails.js";
import { impersonation } from "./0003_impersonation.js";
import { activeOrganization } from "./0004_active_organization.js";
import { providerAccounts } from "./0005_provider_accounts.js";
import { mailLeases } from "./0006_mail_leases.js";
import { userLocale } from "./0007_user_locale.js";
import { mailLeaseClaims } from "./0008_mail_lease_claims.js";
import { mailSenders } from "./0009_mail_senders.js";
import { twoFactor } from "./0010_two_factor.js";
import { passkeys } from "./0011_passkeys.js";
import { verificationAttempts } from "./0012_verification_attempts.js";
import { apiKeys } from "./0013_api_keys.js";

/** In the order they run: a new migration is a new file, added here last, and never changes once released. */
export const authMigrations: Migrations = {
  "0001_users_accounts_sessions": usersAccountsSessions,
  "0002_mails": mails,
  "0003_impersonation": impersonation,
  "0004_active_organization": activeOrganization,
  "0005_provider_accounts": providerAccounts,
  "0006_mail_leases": mailLeases,
  "0007_user_locale": userLocale,
  "0008_mail_lease_claims": mailLeaseClaims,
  "0009_mail_senders": mailSenders,
  "0010_two_factor": twoFactor,
  "0011_passkeys": passkeys,
  "0012_verification_attempts": verificationAttempts,
  "0013_api_keys": apiKeys,
};
