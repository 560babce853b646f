import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { describeError, request } from "../api/client";
import { permission } from "../organizations/permissions";
import { Alert, Button, Card } from "../ui/components";

interface Clock {
  now: string;
  offset_seconds: number;
}

const DAY_SECONDS = 86_400;

/**
 * The sandbox's test clock for one organization: where its billing time stands, and buttons to move
 * it ahead, so a seller can rehearse renewals, trials and dunning in seconds. Hidden when billing
 * runs with a real processor (the clock does not exist there).
 */
export function TestClockCard({ organizationId, role }: { organizationId: string; role: string | undefined }) {
  const queryClient = useQueryClient();
  const path = `/v1/sandbox/clock/${encodeURIComponent(organizationId)}`;
  const clock = useQuery({ queryKey: ["test-clock", organizationId], queryFn: () => request<Clock>(path) });
  const [outcome, setOutcome] = useState<{ tone: "error" | "success"; text: string } | null>(null);
  const advance = useMutation({
    mutationFn: (days: number) => request<Clock>(`${path}/advance`, { method: "POST", body: { days } }),
    onSuccess: async (result, days) => {
      setOutcome(result.error ? { tone: "error", text: describeError(result.error) } : { tone: "success", text: `Moved ahead ${days === 1 ? "a day" : `${days} days`}; renewals and retries that came due have run.` });
      await queryClient.invalidateQueries({ queryKey: ["test-clock", organizationId] });
    },
  });
  if (clock.data?.error?.status === 404) return null;
  const may = permission(role, "update");
  const current = clock.data?.data;
  const daysAhead = current ? Math.round(current.offset_seconds / DAY_SECONDS) : 0;
  return (
    <Card title="Sandbox test clock" description="Renewals, trials, dunning and checkout expiry follow this clock. It only moves forward.">
      {clock.isPending && <p className="muted">Reading the clock…</p>}
      {clock.data?.error && <Alert tone="error">{describeError(clock.data.error)}</Alert>}
      {current && (
        <p>
          Billing time: <strong>{new Date(current.now).toLocaleString("en-GB", { dateStyle: "long", timeStyle: "short" })}</strong>
          {daysAhead > 0 ? ` (${daysAhead} ${daysAhead === 1 ? "day" : "days"} ahead)` : " (real time)"}
        </p>
      )}
      {outcome && <Alert tone={outcome.tone}>{outcome.text}</Alert>}
      {!may.allowed && <p className="muted">{may.reason}</p>}
      <div className="actions">
        {[1, 30].map((days) => (
          <Button key={days} variant="secondary" disabled={!may.allowed || advance.isPending} busy={advance.isPending && advance.variables === days} onClick={() => advance.mutate(days)}>
            {days === 1 ? "Advance 1 day" : `Advance ${days} days`}
          </Button>
        ))}
      </div>
    </Card>
  );
}
