import { z } from "zod";
import { defineEndpoint, type Endpoint } from "@tollgate/kit";
import { advanceClock, sellerNow } from "./clock.js";
import { TestClock, TestClockAdvance } from "./schemas.js";
import type { Parts } from "../parts.js";

const TAG = "sandbox/test-clock";

const clockJson = (organizationId: string, now: Date) => ({ organization_id: organizationId, now: now.toISOString(), offset_seconds: Math.round((now.getTime() - Date.now()) / 1000) });

/**
 * The sandbox's test clock: a seller moves their own billing time ahead to rehearse renewals,
 * trials, dunning and checkout expiry in seconds. Only with the sandbox processor, where no money moves.
 */
export function testClockEndpoints({ db, access }: Pick<Parts, "db" | "access">, catchUp: (organizationId: string) => Promise<void>): Endpoint[] {
  const params = z.object({ organization_id: z.string() });
  return [
    defineEndpoint("/v1/sandbox/clock/:organization_id", { method: "GET", params, response: TestClock, summary: "Get a seller's test clock", tag: TAG }, async ({ params, identity }) => {
      const organizationId = await access.organizationFor(identity, "subscriptions:read", params.organization_id);
      return clockJson(organizationId, await sellerNow(db, organizationId));
    }),

    defineEndpoint(
      "/v1/sandbox/clock/:organization_id/advance",
      {
        method: "POST",
        params,
        body: TestClockAdvance,
        response: TestClock,
        summary: "Move a seller's test clock ahead, running what comes due",
        tag: TAG,
      },
      async ({ params, body, identity }) => {
        const organizationId = await access.organizationFor(identity, "subscriptions:write", params.organization_id);
        const now = await advanceClock(db, organizationId, body.days * 86_400 + body.seconds);
        // Renewals, trial ends and dunning up to the new time have happened when this answers.
        await catchUp(organizationId);
        return clockJson(organizationId, now);
      },
    ),
  ];
}
