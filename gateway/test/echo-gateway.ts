import type { Server } from "node:http";
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
