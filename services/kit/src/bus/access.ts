import { busAccessOf, ownerOfEvent, type RequestDefinition } from "@tollgate/proto";

/**
 * Holds a process to what proto's BUS_ACCESS declares of it. In production its NATS user is allowed
 * that and no more; these checks make code that needs more fail wherever it runs (a NATS without
 * users, as in tests and `npm start`), with a message saying what to declare. A process the
 * declaration does not name (a test's, a bench's) is not held.
 */
export class UndeclaredBusUse extends Error {
  constructor(process: string, use: string) {
    super(`${process} ${use}, which proto's BUS_ACCESS does not declare (its NATS user would be refused)`);
    this.name = "UndeclaredBusUse";
  }
}

export function checkAnnounces(process: string, type: string): void {
  const owner = ownerOfEvent(type);
  if (busAccessOf(process) && owner !== process) throw new UndeclaredBusUse(process, `announces ${type}${owner ? `, ${owner}'s event` : ""}`);
}

export function checkCalls(process: string, request: RequestDefinition): void {
  const access = busAccessOf(process);
  if (access && !access.calls.some((declared) => declared.name === request.name)) throw new UndeclaredBusUse(process, `sends the request ${request.name}`);
}

export function checkServes(process: string, request: RequestDefinition): void {
  const access = busAccessOf(process);
  if (access && !access.serves.some((declared) => declared.name === request.name)) throw new UndeclaredBusUse(process, `answers the request ${request.name}`);
}

/** A consumer must be declared by its name with exactly the event types it handles: its NATS permissions name its subject filter. */
export function checkConsumes(process: string, consumer: string, types: readonly string[]): void {
  const access = busAccessOf(process);
  if (!access) return;
  const declared = Object.hasOwn(access.consumers, consumer) ? access.consumers[consumer]?.map((event) => event.type) : undefined;
  const same = declared && declared.length === types.length && types.every((type) => declared.includes(type));
  if (!same) throw new UndeclaredBusUse(process, `consumes ${types.join(", ")} as ${consumer}`);
}
