import { EventEnvelope } from "@tollgate/proto";
import type { BusConnection } from "../bus/connection.js";

/** Every event in the stream so far, in order: what a subscriber from the start would have seen. */
export async function publishedEvents(bus: BusConnection): Promise<EventEnvelope[]> {
  const { state } = await bus.jsm.streams.info(bus.names.eventStream);
  if (state.messages === 0) return [];
  const consumer = await bus.js.consumers.get(bus.names.eventStream);
  const events: EventEnvelope[] = [];
  for await (const message of await consumer.fetch({ max_messages: state.messages, expires: 5_000 })) {
    events.push(EventEnvelope.parse(message.json()));
    if (events.length === state.messages) break;
  }
  return events;
}
