import { BUS_ACCESS, type BusNames, type BusProcess } from "@tollgate/proto";
import { narrowestFilter } from "./consumer.js";

/** What a NATS user may do: publish to and subscribe to these subjects (wildcards allowed), and answer requests it received. */
export interface NatsPermissions {
  publish: string[];
  subscribe: string[];
  /** Publishing to the reply subject of a request it received, once: a responder's answer. */
  allowResponses: boolean;
}

const API = "$JS.API";

/**
 * The least a process's NATS user must be allowed for what proto's BUS_ACCESS declares of it and
 * what the kit does for it: publish its own events and the requests it sends; create, update and read
 * the event stream (every process ensures it at start; none may delete or purge it); create, read,
 * pull from and acknowledge its own durables, each with its own subject filter only; listen on the
 * subjects of the requests it answers and on its own reply inbox, and nowhere else.
 */
export function natsPermissions(process: BusProcess, names: BusNames): NatsPermissions {
  const access = BUS_ACCESS[process];
  const stream = names.eventStream;
  const consumers = Object.entries(access.consumers).flatMap(([consumer, events]) => [
    `${API}.CONSUMER.CREATE.${stream}.${consumer}.${names.eventSubject(narrowestFilter(events.map((event) => event.type)))}`,
    `${API}.CONSUMER.INFO.${stream}.${consumer}`,
    `${API}.CONSUMER.MSG.NEXT.${stream}.${consumer}`,
    `$JS.ACK.${stream}.${consumer}.>`,
  ]);
  return {
    publish: [
      ...access.events.map((family) => names.eventSubject(`${family}.>`)),
      ...access.calls.map((request) => names.requestSubject(request.name)),
      `${API}.INFO`,
      ...["CREATE", "UPDATE", "INFO"].map((verb) => `${API}.STREAM.${verb}.${stream}`),
      ...consumers,
    ],
    subscribe: [...access.serves.map((request) => names.requestSubject(request.name)), `${names.replyInbox(process)}.>`],
    allowResponses: access.serves.length > 0,
  };
}
