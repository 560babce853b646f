import { z } from "zod";
import { literalHostProblem } from "../deliveries/address-guard.js";
import type { DispatcherConfig } from "../config.js";

/**
 * Where an endpoint may point: https in production (http too elsewhere), and not at a loopback or
 * private address written into the URL unless private URLs are allowed. Names are checked again
 * whenever a delivery resolves them.
 */
export function endpointUrl(config: DispatcherConfig) {
  const protocols = config.NODE_ENV === "production" ? ["https:"] : ["https:", "http:"];
  return z
    .url({ error: "A URL such as https://example.com/webhooks" })
    .max(2048)
    .superRefine((value, context) => {
      // Zod runs refinements after a failed check too; the URL check has said what is wrong.
      if (!URL.canParse(value)) return;
      const url = new URL(value);
      if (!protocols.includes(url.protocol)) {
        context.addIssue({ code: "custom", message: config.NODE_ENV === "production" ? "Endpoints must use https" : "Endpoints must use https or http" });
        return;
      }
      const problem = config.WEBHOOKS_ALLOW_PRIVATE_URLS ? null : literalHostProblem(url);
      if (problem) context.addIssue({ code: "custom", message: `Endpoints may not point at private addresses: ${problem}` });
    });
}

/** The schema of an endpoint's address under a deployment's policy. */
export type EndpointUrl = ReturnType<typeof endpointUrl>;
