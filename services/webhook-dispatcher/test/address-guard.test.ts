import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { IdentityClaims } from "@tollgate/proto";
import { createTestEnvironment, identityHeaders, startTestService, type TestEnvironment } from "@tollgate/kit/testing";
import { addressProblem } from "../src/deliveries/address-guard.js";
import { WebhookSender } from "../src/deliveries/sender.js";
import { webhookDispatcherService } from "../src/service.js";
import { WebhookReceiver } from "../../../test/stacks/receiver.js";
import { DISPATCHER_SECRETS } from "../../../test/stacks/dispatcher.js";

let receiver: WebhookReceiver;
const sender = new WebhookSender({ timeoutMs: 2_000, allowPrivateUrls: false, userAgent: "test" });

beforeAll(async () => {
  receiver = await new WebhookReceiver().start();
});

afterAll(async () => {
  sender.close();
  await receiver.stop();
});

describe("SSRF protection", () => {
  it("refuses loopback, private, link-local, metadata and unique-local addresses, and lets public ones through", () => {
    for (const address of ["127.0.0.1", "10.1.2.3", "172.16.0.1", "192.168.1.1", "169.254.169.254", "100.100.100.200", "0.0.0.0", "::1", "fe80::1", "fd00:ec2::254", "::ffff:127.0.0.1"]) {
      expect(addressProblem(address), address).not.toBeNull();
    }
    for (const address of ["93.184.215.14", "2606:4700:4700::1111"]) expect(addressProblem(address), address).toBeNull();
  });

  it("never connects to a private address, whether written in the URL or resolved from a name", async () => {
    const port = new URL(receiver.url).port;
    for (const url of [`http://127.0.0.1:${port}/webhooks`, `http://localhost:${port}/webhooks`, `http://[::ffff:7f00:1]:${port}/webhooks`]) {
      const result = await sender.post(url, "{}", {});
      expect(result, url).toMatchObject({ succeeded: false, httpCode: null, error: expect.stringMatching(/refused/) as string });
    }
    expect(receiver.received).toEqual([]);
  });

  describe("in production", () => {
    let environment: TestEnvironment;
    let service: Awaited<ReturnType<typeof startTestService>>;

    beforeAll(async () => {
      environment = await createTestEnvironment();
      service = await startTestService(webhookDispatcherService, environment, { ...DISPATCHER_SECRETS, NODE_ENV: "production" });
    });

    afterAll(async () => {
      await service?.stop();
    });

    it("accepts only https endpoints on public hosts", async () => {
      const token: IdentityClaims = { kind: "organization_token", token_id: "oat_1", organization_id: "org_1", scopes: ["webhooks:write"] };
      const create = (url: string) =>
        fetch(`${service.url}/v1/webhooks/endpoints`, {
          method: "POST",
          headers: { "content-type": "application/json", ...identityHeaders(environment, token) },
          body: JSON.stringify({ url, format: "raw", events: ["order.paid"] }),
        });
      for (const [url, message] of [
        ["http://shop.example/hooks", "Endpoints must use https"],
        ["https://127.0.0.1/hooks", "Endpoints may not point at private addresses: 127.0.0.1 is a loopback address"],
        ["https://169.254.169.254/latest", "Endpoints may not point at private addresses: 169.254.169.254 is a linkLocal address"],
      ]) {
        const response = await create(url ?? "");
        expect(response.status, url).toBe(422);
        expect(await response.json()).toMatchObject({ detail: [{ loc: ["body", "url"], msg: message }] });
      }
      expect((await create("https://shop.example/hooks")).status).toBe(201);
    });
  });
});
