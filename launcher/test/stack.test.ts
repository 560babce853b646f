import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { spawnTypeScript } from "@tollgate/kit/testing";
import { browserOn } from "../../test/stacks/auth.js";
import { LocalIdentityProvider, signInThroughProvider } from "../../test/stacks/identity-provider.js";
import { startTollgate, type RunningTollgate } from "../../test/stacks/tollgate.js";

/** The environments of the running processes whose command line ends with `entry`, among those of the stack on the NATS prefix `prefix` (every process reads it). */
function environmentsOf(entry: string, prefix: string): Record<string, string>[] {
  const found: Record<string, string>[] = [];
  for (const pid of readdirSync("/proc").filter((name) => /^\d+$/.test(name))) {
    try {
      const command = readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").filter(Boolean);
      if (!command.at(-1)?.endsWith(entry)) continue;
      const environment = Object.fromEntries(
        readFileSync(`/proc/${pid}/environ`, "utf8")
          .split("\0")
          .filter(Boolean)
          .map((pair) => [pair.slice(0, pair.indexOf("=")), pair.slice(pair.indexOf("=") + 1)]),
      );
      if (environment.NATS_PREFIX === prefix) found.push(environment);
    } catch {
      // The process ended while we looked.
    }
  }
  return found;
}

describe("npm start", () => {
  it("migrates and runs every service behind the gateway, safe to expose as it starts, then stops them all on Ctrl-C", { timeout: 180_000 }, async () => {
    let tollgate: RunningTollgate | undefined;
    const idp = await LocalIdentityProvider.start();
    try {
      // A database that does not exist yet: the launcher creates it. GitHub sign-in goes to a local
      // provider through its own endpoints (GITHUB_TOKEN_URL among them), and one setting is misspelt.
      tollgate = await startTollgate({ LOG_LEVEL: "info", ...idp.env("github"), GITHUB_TOKEN_ULR: `${idp.url}/token` });
      const stack = tollgate.process;
      const gatewayUrl = tollgate.url;

      expect((await fetch(`${gatewayUrl}/healthz`)).status).toBe(200);
      const listening = JSON.parse(await stack.waitFor(/"msg":"gateway is listening"/)) as { upstreams: Record<string, string> };
      const services = Object.values(listening.upstreams);
      expect(services).toHaveLength(4);
      for (const service of services) {
        const ready = await fetch(`${service}/readyz`);
        expect(ready.status).toBe(200);
        // Every service checks Postgres and NATS; one that keeps state in Redis checks that too.
        const readiness = (await ready.json()) as { status: string; checks: Record<string, string> };
        expect(readiness.status).toBe("ready");
        expect(readiness.checks).toMatchObject({ postgres: "ok", nats: "ok" });
        expect(Object.values(readiness.checks).every((check) => check === "ok")).toBe(true);
      }

      const page = await fetch(`${gatewayUrl}/organizations`, { headers: { accept: "text/html" } });
      const html = await page.text();
      expect(html).toContain('<div id="root"></div>');
      expect(html).toMatch(/<script type="module" crossorigin src="\/assets\/index-[\w-]+\.js">/);
      // Reaching a service's own 404 proves the route and that it accepted the gateway's identity token.
      const auth = await fetch(`${gatewayUrl}/api/auth/no-such-endpoint`);
      expect(auth.status).toBe(404);
      expect(await auth.json()).toEqual({ code: "NOT_FOUND", message: "no route for GET /api/auth/no-such-endpoint" });
      const billing = await fetch(`${gatewayUrl}/v1/no-such-resource/`);
      expect(await billing.json()).toEqual({ error: "ResourceNotFound", detail: "no route for GET /v1/no-such-resource/" });

      // Safe to expose as it starts (#1, #15, #16).
      const site = `http://localhost:${new URL(gatewayUrl).port}`;
      const post = (path: string, body: unknown) =>
        fetch(`${gatewayUrl}${path}`, { method: "POST", headers: { "content-type": "application/json", origin: site }, body: JSON.stringify(body) });
      expect((await post("/api/auth/sign-up/email", { name: "Operator", email: "operator@example.com", password: "correct horse battery staple" })).status).toBe(200);
      expect((await post("/api/auth/request-password-reset", { email: "operator@example.com", redirectTo: "/reset" })).status).toBe(200);

      // #1: nobody reads mail through the site; whoever ran npm start reads it on the console.
      expect((await fetch(`${gatewayUrl}/api/auth/dev/mailbox`)).status).toBe(404);
      const printed = JSON.parse(await stack.waitFor(/"msg":"mail to operator@example\.com .*Reset your password/)) as { service: string; msg: string };
      expect(printed.service).toBe("auth");
      expect(printed.msg).toMatch(/\/api\/auth\/reset-password\/\w+/);

      // #15: services listen on loopback only, and the public port serves no metrics.
      await stack.waitFor(/"msg":"webhook-dispatcher is listening"/);
      const bound = stack
        .output()
        .stdout
        .split("\n")
        .filter((line) => line.includes(" is listening"))
        .map((line) => JSON.parse(line) as { service: string; host?: string });
      expect(Object.fromEntries(bound.filter((line) => line.service !== "gateway").map((line) => [line.service, line.host]))).toEqual({
        auth: "127.0.0.1",
        organization: "127.0.0.1",
        billing: "127.0.0.1",
        "webhook-dispatcher": "127.0.0.1",
      });
      const metrics = await fetch(`${gatewayUrl}/metrics`);
      expect(await metrics.text()).not.toContain("# HELP");

      // #16: each process holds only the secrets its config schema declares; only the gateway can sign an identity.
      const environmentOf = (entry: string) => {
        const [environment] = environmentsOf(entry, tollgate?.environment.natsPrefix ?? "");
        expect(environment, entry).toBeDefined();
        return environment ?? {};
      };
      const secretsOf = (entry: string) => ["AUTH_SECRET", "IDENTITY_SIGNING_KEY", "FILE_URL_SECRET", "WEBHOOK_SECRET_KEYS", "GITHUB_CLIENT_SECRET"].filter((name) => environmentOf(entry)[name]);
      expect(secretsOf("services/auth/dist/main.js")).toEqual(["AUTH_SECRET", "GITHUB_CLIENT_SECRET"]);
      expect(secretsOf("services/organization/dist/main.js")).toEqual([]);
      expect(secretsOf("services/billing/dist/main.js")).toEqual(["FILE_URL_SECRET"]);
      expect(secretsOf("services/webhook-dispatcher/dist/main.js")).toEqual(["WEBHOOK_SECRET_KEYS"]);
      expect(secretsOf("gateway/dist/main.js")).toEqual(["AUTH_SECRET", "IDENTITY_SIGNING_KEY"]);

      // A setting reaches the process whose schema declares it, whatever its name: a provider's
      // token endpoint is no secret, and signing in through that provider works.
      expect(environmentOf("services/auth/dist/main.js").GITHUB_TOKEN_URL).toBe(`${idp.url}/token`);
      const onSite = { gateway: { url: gatewayUrl }, publicUrl: site };
      const browser = browserOn(onSite);
      expect((await signInThroughProvider(onSite, browser, "github")).pathname).toBe("/welcome");
      expect((await browser.client.getSession()).data?.user.email).toBe(idp.person.email);
      // A misspelt setting is named at start, not dropped in silence.
      expect(stack.output().stdout).toMatch(/WARN.*GITHUB_TOKEN_ULR is set but no process reads it; did you mean GITHUB_TOKEN_URL\?/);

      // Ctrl-C in a terminal signals the whole foreground group: npm and the launcher under it.
      await tollgate.stop();
      await stack.waitFor(/tollgate\s*│.*INFO.*: stopped$/);
      expect(stack.output().stdout).not.toMatch(/exited unexpectedly|stopped with exit code/);
      for (const url of [gatewayUrl, ...services]) await expect(fetch(`${url}/healthz`)).rejects.toThrow();
    } finally {
      await tollgate?.stop();
      await idp.stop();
    }
  });

  it("refuses to start when a dependency is missing, naming it and how to start it", async () => {
    const launcher = spawnTypeScript(fileURLToPath(new URL("../src/main.ts", import.meta.url)), {
      env: { NATS_URL: "nats://127.0.0.1:1", REDIS_URL: "redis://127.0.0.1:2" },
    });
    expect((await launcher.exited).code).toBe(1);
    const { stderr } = launcher.output();
    expect(stderr).toContain("tollgate: cannot start:");
    expect(stderr).toMatch(/cannot use NATS at nats:\/\/127\.0\.0\.1:1 \(.+\); start nats-server with JetStream \(-js\) or set NATS_URL/);
    expect(stderr).toMatch(/cannot use Redis at redis:\/\/127\.0\.0\.1:2 \(.+\); start redis-server or set REDIS_URL/);
    expect(stderr).not.toMatch(/^\s+at /m);
  });
});
