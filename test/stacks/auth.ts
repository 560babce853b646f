import { randomBytes } from "node:crypto";
import { createAuthClient } from "better-auth/client";
import { adminClient, emailOTPClient, inferAdditionalFields, inferOrgAdditionalFields, magicLinkClient, organizationClient, twoFactorClient, usernameClient } from "better-auth/client/plugins";
import { apiKeyClient } from "@better-auth/api-key/client";
import { passkeyClient } from "@better-auth/passkey/client";
import makeFetchCookie from "fetch-cookie";
import { Redis } from "ioredis";
import { CookieJar } from "tough-cookie";
import type { RunningService, ServiceConfig } from "@tollgate/kit";
import type { Server } from "node:http";
import { createTestEnvironment, startEchoUpstream, startTestService, testLogger, type TestEnvironment } from "@tollgate/kit/testing";
import { loadGatewayConfig, startGateway, type RunningGateway } from "@tollgate/gateway";
import { insertCredentialAccount } from "../../services/auth/src/credentials/credentials.sql.js";
import { PasswordHasher } from "../../services/auth/src/credentials/passwords.js";
import { authService } from "../../services/auth/src/service.js";
import { insertUser } from "../../services/auth/src/users/users.sql.js";
import type { AuthEnv } from "../../services/auth/src/config.js";

export const PUBLIC_URL = "http://localhost:3000";

/** Starts a service of the stack in its test environment. */
export type UpstreamStarter = (environment: TestEnvironment) => Promise<{ url: string; stop(): Promise<void> }>;

/** The real services to run behind the gateway beside auth; the organization service is echoed when absent. */
export interface Upstreams {
  organization?: UpstreamStarter;
  billing?: UpstreamStarter;
  webhooks?: UpstreamStarter;
}

export interface AuthStack {
  environment: TestEnvironment;
  auth: RunningService<ServiceConfig<AuthEnv>>;
  gateway: RunningGateway;
  /** Stands in for every service not started: answers with the identity the gateway forwarded. */
  echo: { url: string; server: Server };
  /** A better-auth client, unchanged, with its own cookie jar: one browser. */
  browser(): Browser;
  /** Empties the gateway's session cache, as time would: for tests that change sessions in the database. */
  forgetCachedSessions(): Promise<void>;
  stop(): Promise<void>;
}

export interface Browser {
  client: ReturnType<typeof createBrowserClient>;
  jar: CookieJar;
  /** A raw request through the gateway with this browser's cookies. */
  fetch: typeof fetch;
}

function createBrowserClient(baseURL: string, fetchWithCookies: typeof fetch, publicUrl: string) {
  return createAuthClient({
    baseURL,
    // `locale` is Tollgate's additional user field, declared as an app declares its own to the client.
    plugins: [
      usernameClient(),
      adminClient(),
      // `requireTwoFactor` is Tollgate's additional organization field, declared as an app declares its own.
      organizationClient({ teams: { enabled: true }, schema: inferOrgAdditionalFields({ organization: { additionalFields: { requireTwoFactor: { type: "boolean", required: false } } } }) }),
      twoFactorClient(),
      passkeyClient(),
      magicLinkClient(),
      emailOTPClient(),
      apiKeyClient(),
      inferAdditionalFields({ user: { locale: { type: "string", required: false } } }),
    ],
    fetchOptions: { customFetchImpl: fetchWithCookies, headers: { origin: publicUrl } },
  });
}

/** Where a browser reaches a running site: the gateway's own address, and the public one (PUBLIC_URL unless said) that links and redirects name. */
export interface Site {
  gateway: { url: string };
  publicUrl?: string;
}

/** One browser on `site`, with its own cookie jar, running better-auth's client unchanged. */
export function browserOn(site: Site): Browser {
  const jar = new CookieJar();
  const fetchWithCookies = makeFetchCookie(fetch, jar) as typeof fetch;
  return { jar, fetch: fetchWithCookies, client: createBrowserClient(`${site.gateway.url}/api/auth`, fetchWithCookies, site.publicUrl ?? PUBLIC_URL) };
}

/**
 * The auth service behind a real gateway, on the run's Postgres, NATS and Redis. Rate limits are
 * off unless `gatewayEnv` turns them on: most tests sign in far more often than 3 times in 10 s.
 */
export async function startAuthStack(
  authEnv: Record<string, string> = {},
  gatewayEnv: Record<string, string> = {},
  upstreams: Upstreams = {},
): Promise<AuthStack> {
  const environment = await createTestEnvironment();
  const shared = { ...environment.env, AUTH_SECRET: randomBytes(32).toString("base64url"), PUBLIC_URL };
  const auth = await startTestService(authService, environment, { BCRYPT_COST: "4", ...shared, ...authEnv });
  const echo = await startEchoUpstream("organization", environment.identityKeys.verifyKey);
  const started = {
    organization: await upstreams.organization?.(environment),
    billing: await upstreams.billing?.(environment),
    webhooks: await upstreams.webhooks?.(environment),
  };
  const gateway = await startGateway(
    loadGatewayConfig({
      ...shared,
      IDENTITY_SIGNING_KEY: environment.identityKeys.signingKey,
      PORT: "0",
      HOST: "127.0.0.1",
      AUTH_URL: auth.url,
      ORGANIZATION_URL: started.organization?.url ?? echo.url,
      BILLING_URL: started.billing?.url ?? echo.url,
      WEBHOOKS_URL: started.webhooks?.url ?? echo.url,
      RATE_LIMIT_ENABLED: "false",
      ...gatewayEnv,
    }),
    testLogger("gateway", environment.env.LOG_LEVEL ?? "silent"),
  );
  return {
    environment,
    auth,
    gateway,
    echo,
    browser() {
      return browserOn({ gateway });
    },
    async forgetCachedSessions() {
      // Keys are listed with the gateway's prefix and deleted through a client without one.
      const redis = new Redis(environment.redisUrl);
      const keys = [...(await redis.keys(`${environment.redisPrefix}session:*`)), ...(await redis.keys(`${environment.redisPrefix}user-sessions:*`))];
      if (keys.length > 0) await redis.del(...keys);
      redis.disconnect();
    },
    async stop() {
      await gateway.stop();
      for (const service of [started.webhooks, started.billing, started.organization]) await service?.stop();
      await auth.stop();
      echo.server.close();
    },
  };
}

/** Links and redirects name the public address; the test's gateway listens elsewhere. */
export function viaGateway(stack: Site, link: string): string {
  const url = new URL(link);
  return `${stack.gateway.url}${url.pathname}${url.search}`;
}

/** A platform admin named in ADMIN_USER_IDS (start the stack with `ADMIN_USER_IDS: ROOT_ADMIN.id`): an admin whatever their role. */
export const ROOT_ADMIN = { id: "root-admin-from-config", email: "root@example.com", password: "correct horse battery staple" };

/** Puts ROOT_ADMIN in place (sign-up makes ids at random; ADMIN_USER_IDS names a known one) and signs them in. */
export async function signInRootAdmin(stack: AuthStack): Promise<Browser & { id: string; email: string }> {
  const { db } = stack.auth.context;
  await insertUser(db, { id: ROOT_ADMIN.id, name: "Root", email: ROOT_ADMIN.email });
  await insertCredentialAccount(db, ROOT_ADMIN.id, await new PasswordHasher(4).hash(ROOT_ADMIN.password));
  const browser = stack.browser();
  await browser.client.signIn.email({ email: ROOT_ADMIN.email, password: ROOT_ADMIN.password });
  return { ...browser, id: ROOT_ADMIN.id, email: ROOT_ADMIN.email };
}
