import { randomUUID } from "node:crypto";
import type { ServerResponse } from "node:http";
import { OAuth2Server, type AugmentedRequest, type MutableResponse, type MutableToken } from "oauth2-mock-server";
import { PUBLIC_URL, viaGateway, type Browser, type Site } from "./auth.js";

/** Who signs in at the identity provider next. */
export interface Person {
  id: string;
  email: string;
  emailVerified: boolean;
  name: string;
  picture?: string;
}

/** The Microsoft tenant the local provider's tokens name. */
export const TENANT_ID = "72f988bf-86f1-41af-91ab-2d7cd011db47";

const send = (res: ServerResponse, body: unknown) => res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(body));

/**
 * A real OAuth 2.0 / OpenID Connect server on loopback (oauth2-mock-server) standing in for every
 * provider: it signs ID tokens with its own keys (published at its JWKS), checks PKCE verifiers, and
 * serves GitHub's and Discord's profile endpoints in their real shapes. Tollgate reaches it through
 * the providers' endpoint settings, as it would a self-hosted variant.
 */
export class LocalIdentityProvider {
  person: Person = { id: "1001", email: "ada@example.com", emailVerified: true, name: "Ada Lovelace", picture: "https://images.example/ada.png" };
  /** The next authorization code exchange answers 400 invalid_grant, as a provider does for a bad or used code. */
  refuseNextCode = false;
  /** Profile calls made, by path, to check what Tollgate asked for. */
  readonly profileCalls: string[] = [];

  private constructor(private readonly server: OAuth2Server) {}

  static async start(): Promise<LocalIdentityProvider> {
    const server = new OAuth2Server();
    await server.issuer.keys.generate("RS256");
    await server.start(0, "127.0.0.1");
    const idp = new LocalIdentityProvider(server);
    idp.shapeTokens();
    idp.serveProfiles();
    return idp;
  }

  get url(): string {
    return (this.server.issuer.url ?? "").replace(/\/$/, "");
  }

  /** The auth service's settings pointing each named provider here, with client id `<provider>-client`. */
  env(...providers: string[]): Record<string, string> {
    const settings: Record<string, string> = {};
    for (const provider of providers) {
      const key = provider.toUpperCase();
      Object.assign(settings, {
        [`${key}_CLIENT_ID`]: `${provider}-client`,
        [`${key}_CLIENT_SECRET`]: `${provider}-secret`,
        [`${key}_AUTHORIZATION_URL`]: `${this.url}/authorize`,
        [`${key}_TOKEN_URL`]: `${this.url}/token`,
        [`${key}_JWKS_URL`]: `${this.url}/jwks`,
      });
    }
    if (providers.includes("github")) Object.assign(settings, { GITHUB_USERINFO_URL: `${this.url}/github/user`, GITHUB_EMAILS_URL: `${this.url}/github/user/emails` });
    if (providers.includes("discord")) settings.DISCORD_USERINFO_URL = `${this.url}/discord/users/@me`;
    if (providers.includes("microsoft")) settings.MICROSOFT_AUTHORITY = this.url;
    return settings;
  }

  /** An ID token signed by this provider's key, with `claims` over the issuer's defaults. */
  idToken(claims: Record<string, unknown>, expiresIn = 600): Promise<string> {
    return this.server.issuer.buildToken({ expiresIn, scopesOrTransform: (_header, payload) => Object.assign(payload, claims) });
  }

  stop(): Promise<void> {
    return this.server.stop();
  }

  /** The ID token's claims in the shape and with the issuer the provider whose client asked would use. */
  private claimsFor(clientId: string): Record<string, unknown> | null {
    const { person } = this;
    switch (clientId) {
      case "google-client":
        return { iss: "https://accounts.google.com", sub: person.id, email: person.email, email_verified: person.emailVerified, name: person.name, picture: person.picture };
      case "apple-client":
        // Apple sends email_verified as a string.
        return { iss: "https://appleid.apple.com", sub: person.id, email: person.email, email_verified: String(person.emailVerified) };
      case "microsoft-client":
        return { iss: `${this.url}/${TENANT_ID}/v2.0`, tid: TENANT_ID, oid: person.id, sub: `pairwise-${person.id}`, email: person.email, name: person.name };
      default:
        return null;
    }
  }

  private shapeTokens(): void {
    const { service } = this.server;
    service.on("beforeTokenSigning", (token: MutableToken) => {
      // Each token unique, even two made in the same second.
      token.payload.jti = randomUUID();
      const claims = typeof token.payload.aud === "string" ? this.claimsFor(token.payload.aud) : null;
      if (claims) Object.assign(token.payload, claims);
    });
    service.on("beforeResponse", (response: MutableResponse, req: AugmentedRequest) => {
      const body = req.body as Record<string, unknown> | undefined;
      if (body?.grant_type !== "authorization_code" || !this.refuseNextCode) return;
      this.refuseNextCode = false;
      response.statusCode = 400;
      response.body = { error: "invalid_grant", error_description: "The authorization code is invalid or has expired." };
    });
  }

  private serveProfiles(): void {
    const { service } = this.server;
    const authorized = (req: AugmentedRequest, res: ServerResponse) => {
      this.profileCalls.push(req.url ?? "");
      if (req.headers.authorization?.startsWith("Bearer ")) return true;
      res.writeHead(401, { "content-type": "application/json" }).end('{"message":"Requires authentication"}');
      return false;
    };
    service.addRoute("GET", "/github/user", (req, res) => {
      // A GitHub user who keeps their address private: it is only in the e-mails list.
      if (authorized(req, res)) send(res, { login: "ada-l", id: Number(this.person.id), node_id: "MDQ6VXNlcjE=", avatar_url: this.person.picture, name: null, email: null, type: "User" });
    });
    service.addRoute("GET", "/github/user/emails", (req, res) => {
      if (!authorized(req, res)) return;
      send(res, [
        { email: "ada-l@users.noreply.github.com", primary: false, verified: true, visibility: null },
        { email: this.person.email, primary: true, verified: this.person.emailVerified, visibility: "private" },
      ]);
    });
    service.addRoute("GET", "/discord/users/@me", (req, res) => {
      if (!authorized(req, res)) return;
      send(res, {
        id: this.person.id,
        username: "ada",
        discriminator: "0",
        global_name: this.person.name,
        avatar: "a_1269e74af4df7417b13759eae50c83dc",
        email: this.person.email,
        verified: this.person.emailVerified,
        locale: "en-GB",
        mfa_enabled: true,
      });
    });
  }
}

/**
 * Follows redirects as a browser would, with its cookies, through the identity provider and back,
 * until one leads off the auth API; returns where the browser ends up.
 */
export async function followRedirects(stack: Site, browser: Browser, start: string): Promise<URL> {
  const publicUrl = stack.publicUrl ?? PUBLIC_URL;
  let next = new URL(start);
  for (let hop = 0; hop < 10; hop++) {
    const onSite = next.origin === new URL(publicUrl).origin;
    if (onSite && (!next.pathname.startsWith("/api/auth/") || next.pathname === "/api/auth/error")) return next;
    const target = onSite ? viaGateway(stack, next.href) : next.href;
    const response = await browser.fetch(target, { redirect: "manual" });
    const location = response.headers.get("location");
    if (!location) throw new Error(`${target} answered ${response.status} without a redirect`);
    next = new URL(location, onSite ? publicUrl : target);
  }
  throw new Error("too many redirects");
}

/** Signs in with a provider through better-auth's client and the whole redirect flow; returns where the browser lands. */
export async function signInThroughProvider(stack: Site, browser: Browser, provider: string, options: Record<string, unknown> = {}): Promise<URL> {
  const { data, error } = await browser.client.signIn.social({ provider, callbackURL: "/dashboard", newUserCallbackURL: "/welcome", disableRedirect: true, ...options });
  if (!data || data.redirect || !data.url) throw new Error(`sign-in with ${provider} did not start a redirect flow: ${JSON.stringify(error ?? data)}`);
  return followRedirects(stack, browser, data.url);
}
