import { z } from "zod";
import { isoTimestamp } from "@tollgate/kit";

/** A seller's billing time in the sandbox, and how far it runs ahead of the real time. */
export const TestClock = z.strictObject({ organization_id: z.string(), now: isoTimestamp(), offset_seconds: z.int() }).meta({ id: "TestClock" });

export const TestClockAdvance = z.object({ days: z.int().min(0).max(3_650).default(0), seconds: z.int().min(0).max(10 * 365 * 86_400).default(0) });
