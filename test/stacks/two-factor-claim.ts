import { createAuthClient } from "better-auth/client";
import { inferOrgAdditionalFields, organizationClient } from "better-auth/client/plugins";
import type { IdentityClaims } from "@tollgate/proto";
import { identityHeaders, type TestEnvironment } from "@tollgate/kit/testing";
import type { Person } from "./people.js";

/** Tollgate's additional organization field, declared to the client as an app declares its own. */
export const organizationFields = inferOrgAdditionalFields({ organization: { additionalFields: { requireTwoFactor: { type: "boolean", required: false } } } });

/**
 * better-auth's organization client for `person`, pointed straight at the organization service with
 * the identity the gateway forwards for a session that has two-factor authentication. Until the auth
 * service tells the gateway which sessions have it, this is how a test acts as a member who has.
 */
export async function withTwoFactor(environment: Pick<TestEnvironment, "identityKeys">, organizationUrl: string, person: Person) {
  const session = (await person.client.getSession()).data?.session;
  if (!session) throw new Error(`${person.email} is not signed in`);
  const claims: IdentityClaims = { kind: "user", user_id: person.id, session_id: session.id, two_factor: true };
  return createAuthClient({
    baseURL: `${organizationUrl}/api/auth`,
    plugins: [organizationClient({ teams: { enabled: true }, schema: organizationFields })],
    // A fresh token each call: the gateway's tokens live a minute.
    fetchOptions: { customFetchImpl: (input, init) => fetch(input, { ...init, headers: { ...Object.fromEntries(new Headers(init?.headers)), ...identityHeaders(environment, claims) } }) },
  });
}
