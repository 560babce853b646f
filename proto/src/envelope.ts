import { z } from "zod";

/**
 * Every event on the bus travels in this envelope. Consumers must accept envelopes written by the
 * previous release, so fields are only ever added, and unknown ones are ignored when parsing.
 */
export const EventEnvelope = z.object({
  id: z.uuid(),
  type: z.string().regex(/^[a-z][a-z_]*(\.[a-z][a-z_]*)+$/, "a dotted event type such as order.created"),
  occurred_at: z.iso.datetime({ offset: true }),
  source: z.string().min(1),
  data: z.record(z.string(), z.unknown()),
});
export type EventEnvelope = z.infer<typeof EventEnvelope>;

export interface EventDefinition<Type extends string = string, Data extends z.ZodType = z.ZodType> {
  readonly type: Type;
  readonly data: Data;
}

export interface TypedEvent<Type extends string, Data> extends Omit<EventEnvelope, "type" | "data"> {
  type: Type;
  data: Data;
}

/** Declares an event type and the schema of its `data`; producers and consumers share the result. */
export function defineEvent<Type extends string, Data extends z.ZodType<Record<string, unknown>>>(
  type: Type,
  data: Data,
): EventDefinition<Type, Data> {
  EventEnvelope.shape.type.parse(type);
  return { type, data };
}
