import { queryOptions } from "@tanstack/react-query";
import { request } from "../api/client";
import { useChange } from "../api/mutations";
import type { RequestBody, TestClock } from "../api/wire";

const clockPath = (organizationId: string) => `/v1/sandbox/clock/${encodeURIComponent(organizationId)}`;

export const testClockKeys = {
  all: ["test-clock"] as const,
  of: (organizationId: string) => [...testClockKeys.all, organizationId] as const,
};

export const testClockQuery = (organizationId: string) => queryOptions({ queryKey: testClockKeys.of(organizationId), queryFn: () => request<TestClock>(clockPath(organizationId)) });

/** Moves the sandbox's clock ahead; moved or not, the card shows where it stands. */
export const useAdvanceTestClock = (organizationId: string) =>
  useChange(
    (days: number) => request<TestClock>(`${clockPath(organizationId)}/advance`, { method: "POST", body: { days } satisfies RequestBody<"/v1/sandbox/clock/{organization_id}/advance", "post"> }),
    () => [testClockKeys.of(organizationId)],
    { evenIfRefused: true },
  );
