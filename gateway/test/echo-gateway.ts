import { createHash } from "node:crypto";
import type { Server } from "node:http";
import type { z } from "zod";
import { createLogger, respond, type BusConnection } from "@tollgate/kit";
import { resolveAccessToken, resolveSession } from "@tollgate/proto";
import { startEchoUpstream, testLogger, type TestEnvironment } from "@tollgate/kit/testing";
import { loadGatewayConfig } from "../src/config.js";
import { startGateway, type RunningGateway } from "../src/gateway.js";

const UPSTREAMS = ["auth", "organization", "billing", "webhook-dispatcher"] as const;

export interface EchoUpstreams {
  servers: Server[];
  /** The gateway variables pointing at each echo upstream. */
  env: Record<string, string>;
}

/** One real HTTP peer per service, each answering with what the gateway forwarded to it. */
export async function startEchoUpstreams(environment: TestEnvironment): Promise<EchoUpstreams> {
  const echoes = await Promise.all(UPSTREAMS.map((name) => startEchoUpstream(name, environment.identityKeys.verifyKey)));
  const [auth, organization, billing, webhooks] = echoes.map((echo) => echo.url);
  return {
    servers: echoes.map((echo) => echo.server),
    env: { AUTH_URL: auth ?? "", ORGANIZATION_URL: organization ?? "", BILLING_URL: billing ?? "", WEBHOOKS_URL: webhooks ?? "" },
  };
}

/** A gateway in front of the echo upstreams, on the test environment's Redis and NATS. */
export function startEchoGateway(environment: TestEnvironment, upstreams: EchoUpstreams, env: Record<string, string> = {}): Promise<RunningGateway> {
  const config = loadGatewayConfig({
    ...environment.env,
    ...upstreams.env,
    PORT: "0",
    HOST: "127.0.0.1",
    AUTH_SECRET: "a".repeat(43),
    IDENTITY_SIGNING_KEY: environment.identityKeys.signingKey,
    ...env,
  });
  return startGateway(config, testLogger("gateway", environment.env.LOG_LEVEL ?? "silent"));
}

export const digest = (token: string) => createHash("sha256").update(token).digest("hex");

type Session = NonNullable<z.output<typeof resolveSession.response>["session"]>;
type AccessToken = NonNullable<z.output<typeof resolveAccessToken.response>["token"]>;

/** A live session of `userId`, as auth describes it to the gateway. */
export const sessionOf = (userId: string, id = "session-1"): Session => ({
  id,
  user_id: userId,
  expires_at: new Date(Date.now() + 3600_000).toISOString(),
  impersonated_by: null,
  refresh_at: null,
  view: { session: {}, user: {} },
});
export const LIVE_TOKEN: AccessToken = { id: "token-1", organization_id: "org-1", scopes: ["products:read"], expires_at: null };

/** What the stand-ins know, by token digest: by default the session `live-session` (user-1's) and the token `polar_oat_live`. */
export interface StandInAnswers {
  session(tokenHash: string): Session | null;
  token(tokenHash: string): AccessToken | null;
}
const LIVE: StandInAnswers = {
  session: (tokenHash) => (tokenHash === digest("live-session") ? sessionOf("user-1") : null),
  token: (tokenHash) => (tokenHash === digest("polar_oat_live") ? LIVE_TOKEN : null),
};

/** Auth and billing as the gateway asks them on the bus; `asked` hears each question's token digest. */
export function standInAuthAndBilling(bus: BusConnection, asked: (tokenHash: string) => void, answers: StandInAnswers = LIVE): void {
  const logger = createLogger({ service: "test", level: "silent" });
  respond(bus, resolveSession, { queue: "auth", logger }, ({ token_hash }) => {
    asked(token_hash);
    return Promise.resolve({ session: answers.session(token_hash) });
  });
  respond(bus, resolveAccessToken, { queue: "billing", logger }, ({ token_hash }) => {
    asked(token_hash);
    return Promise.resolve({ token: answers.token(token_hash) });
  });
}
