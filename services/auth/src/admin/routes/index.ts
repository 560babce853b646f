import type { Endpoint } from "@tollgate/kit";
import type { Parts } from "../../parts.js";
import { impersonationEndpoints } from "../impersonation.js";
import { adminBanEndpoints } from "./bans.js";
import { adminRoleEndpoints } from "./roles.js";
import { adminSessionEndpoints } from "./sessions.js";
import { adminUserEndpoints } from "./users.js";

/** better-auth's admin plugin: users, roles, bans, impersonation and sessions. */
export function adminEndpoints(auth: Parts): Endpoint[] {
  return [...adminUserEndpoints(auth), ...adminRoleEndpoints(auth), ...adminBanEndpoints(auth), ...impersonationEndpoints(auth), ...adminSessionEndpoints(auth)];
}
