import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, expect, it } from "vitest";
import { BusRequestError, betterAuthErrors, closeServer, createHttpApp, createLogger, listen, Metrics } from "@tollgate/kit";

let server: Server;

beforeAll(async () => {
  const app = createHttpApp(
    { logger: createLogger({ service: "unanswered", level: "silent" }), metrics: new Metrics("unanswered"), errors: betterAuthErrors, readiness: {}, isShuttingDown: () => false },
    (app) => {
      app.get("/needs-auth", () => {
        throw new BusRequestError("auth.session.get", "timeout", "request auth.session.get got no reply within 2000 ms");
      });
    },
  );
  server = await listen(app, 0, "127.0.0.1");
});

afterAll(() => closeServer(server, 1_000));

it("answers 503 in the API's shape when a service it asked over NATS did not answer (it, or NATS, was restarting)", async () => {
  const response = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/needs-auth`);
  expect(response.status).toBe(503);
  expect(await response.json()).toEqual({ code: "SERVICE_UNAVAILABLE", message: "a service this request needs is not answering; try again shortly" });
});
