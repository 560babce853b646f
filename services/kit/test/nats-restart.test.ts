import { afterAll, expect, it } from "vitest";
import { z } from "zod";
import { defineRequest } from "@tollgate/proto";
import { connectBus, createLogger, request, respond, type BusConnection } from "@tollgate/kit";
import { PrivateNatsServer } from "@tollgate/kit/testing";

const ping = defineRequest("test.ping", { request: z.object({ n: z.number() }), response: z.object({ n: z.number() }) });
const connections: BusConnection[] = [];
let server: PrivateNatsServer | null = null;

afterAll(async () => {
  for (const bus of connections) await bus.nc.close();
  await server?.stop();
});

it("connects again within moments of a NATS restart, so a request made meanwhile is answered", async () => {
  server = await PrivateNatsServer.start();
  const url = server.url;
  const [responder, requester] = await Promise.all(["responder", "requester"].map((name) => connectBus({ url, prefix: "restart_test", name })));
  if (!responder || !requester) throw new Error("no connection");
  connections.push(responder, requester);
  respond(responder, ping, { queue: "pinged", logger: createLogger({ service: "restart-test", level: "silent" }) }, (payload) => Promise.resolve(payload));

  // Down long enough that both clients' first attempt to reconnect finds nothing there.
  await server.restart(600);
  // Sent before either client is back: nats.js's own pace (an attempt every 2 s) would leave it unanswered at its deadline.
  await expect(request(requester, ping, { n: 7 }, { timeoutMs: 1_500 })).resolves.toEqual({ n: 7 });
});
