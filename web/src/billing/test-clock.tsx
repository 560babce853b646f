import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { defineMessage, defineMessages, useIntl, type MessageTag } from "react-intl";
import { describeError } from "../api/client";
import { testClockQuery, useAdvanceTestClock } from "./queries";
import { longDateTime } from "../i18n/format";
import { permission } from "../organizations/permissions";
import { Alert, Button, Card } from "../ui/components";
import { QueryState } from "../ui/query-state";

const DAY_SECONDS = 86_400;

const messages = defineMessages({
  movedAhead: defineMessage<{ days: number }>({
    id: "testClock.movedAhead",
    defaultMessage: "{days, plural, one {Moved ahead a day; renewals and retries that came due have run.} other {Moved ahead # days; renewals and retries that came due have run.}}",
  }),
  title: { id: "testClock.title", defaultMessage: "Sandbox test clock" },
  description: { id: "testClock.description", defaultMessage: "Renewals, trials, dunning and checkout expiry follow this clock. It only moves forward." },
  reading: { id: "testClock.reading", defaultMessage: "Reading the clock…" },
  billingTime: defineMessage<{ time: string; strong: MessageTag }>({ id: "testClock.billingTime", defaultMessage: "Billing time: <strong>{time}</strong>" }),
  daysAhead: defineMessage<{ days: number }>({ id: "testClock.daysAhead", defaultMessage: "{days, plural, one {(# day ahead)} other {(# days ahead)}}" }),
  realTime: { id: "testClock.realTime", defaultMessage: "(real time)" },
  advance: defineMessage<{ days: number }>({ id: "testClock.advance", defaultMessage: "{days, plural, one {Advance # day} other {Advance # days}}" }),
});

/**
 * The sandbox's test clock for one organization: where its billing time stands, and buttons to move
 * it ahead, so a seller can rehearse renewals, trials and dunning in seconds. Hidden when billing
 * runs with a real processor (the clock does not exist there).
 */
export function TestClockCard({ organizationId, role }: { organizationId: string; role: string | undefined }) {
  const { formatMessage } = useIntl();
  const clock = useQuery(testClockQuery(organizationId));
  const [outcome, setOutcome] = useState<{ tone: "error" | "success"; text: string } | null>(null);
  const advance = useAdvanceTestClock(organizationId);
  const moveAhead = (days: number) =>
    advance.mutate(days, {
      onSuccess: () => setOutcome({ tone: "success", text: formatMessage(messages.movedAhead, { days }) }),
      onError: (error) => setOutcome({ tone: "error", text: describeError(error.failure) }),
    });
  const may = permission(role, "update");
  return (
    // A live organization has no test clock (404): then the card is not shown at all.
    <QueryState query={clock} loading={messages.reading} failure={(error) => (error.failure.status === 404 ? null : describeError(error.failure))}>
      {(current) => {
        const daysAhead = Math.round(current.offset_seconds / DAY_SECONDS);
        return (
          <Card title={formatMessage(messages.title)} description={formatMessage(messages.description)}>
            <p>
              {formatMessage(messages.billingTime, { time: longDateTime(current.now), strong: (chunks) => <strong>{chunks}</strong> })}{" "}
              {daysAhead > 0 ? formatMessage(messages.daysAhead, { days: daysAhead }) : formatMessage(messages.realTime)}
            </p>
            {outcome && <Alert tone={outcome.tone}>{outcome.text}</Alert>}
            {!may.allowed && <p className="muted">{may.reason}</p>}
            <div className="actions">
              {[1, 30].map((days) => (
                <Button key={days} variant="secondary" disabled={!may.allowed || advance.isPending} busy={advance.isPending && advance.variables === days} onClick={() => moveAhead(days)}>
                  {formatMessage(messages.advance, { days })}
                </Button>
              ))}
            </div>
          </Card>
        );
      }}
    </QueryState>
  );
}
