import { z } from "zod";
import { fromClaims, stringOrNull, truthy, type ProviderDefinition, type ProviderSettings } from "./types.js";

const MICROSOFT_AUTHORITY = "https://login.microsoftonline.com";
/** The tenant every personal Microsoft account belongs to. */
const CONSUMER_TENANT = "9188040d-6c67-4c5b-b112-36a304b66dad";
const MULTI_TENANT = new Set(["common", "organizations", "consumers"]);

const microsoftClaims = z.looseObject({
  oid: z.string().min(1),
  email: z.string().optional(),
  email_verified: z.unknown().optional(),
  verified_primary_email: z.array(z.string()).optional(),
  verified_secondary_email: z.array(z.string()).optional(),
  name: z.string().optional(),
  picture: z.string().optional(),
});

/** The authority (the sign-in host, other for national clouds) and tenant configured. */
const authorityOf = ({ issuer = MICROSOFT_AUTHORITY, tenant = "common" }: ProviderSettings) => ({ authority: issuer.replace(/\/+$/, ""), tenant });

/** Microsoft Entra ID; `issuer` is the authority and `tenant` narrows who may sign in. */
export const microsoft: ProviderDefinition = {
  id: "microsoft",
  name: "Microsoft",
  endpoints(settings) {
    const { authority, tenant } = authorityOf(settings);
    const base = `${authority}/${tenant}`;
    return { authorization: `${base}/oauth2/v2.0/authorize`, token: `${base}/oauth2/v2.0/token`, jwks: `${base}/discovery/v2.0/keys` };
  },
  scopes: ["openid", "profile", "email", "User.Read", "offline_access"],
  pkce: true,
  clientAuthentication: "post",
  idToken: {
    maxAge: "1h",
    // Each tenant issues its own tokens: the issuer must be the one of the tenant the token names.
    acceptClaims(claims, settings) {
      const { authority, tenant } = authorityOf(settings);
      const tid = claims.tid;
      if (typeof tid !== "string" || claims.iss !== `${authority}/${tid}/v2.0`) return false;
      if (!MULTI_TENANT.has(tenant)) return tid === tenant;
      if (tenant === "organizations") return tid !== CONSUMER_TENANT;
      if (tenant === "consumers") return tid === CONSUMER_TENANT;
      return true;
    },
  },
  refreshable: true,
  profile: fromClaims(microsoftClaims, (person) => {
    const email = stringOrNull(person.email);
    // Personal accounts say it with email_verified; work accounts list their verified addresses.
    const emailVerified =
      person.email_verified !== undefined
        ? truthy(person.email_verified)
        : Boolean(email && [...(person.verified_primary_email ?? []), ...(person.verified_secondary_email ?? [])].includes(email));
    return { id: person.oid, email, emailVerified, name: person.name ?? "", image: stringOrNull(person.picture) };
  }),
};
