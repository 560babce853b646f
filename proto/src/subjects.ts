/**
 * Names on NATS. Everything a deployment (or a test run) creates lives under one prefix, so two
 * runs sharing a NATS server never see each other's streams or subjects.
 */
export const NATS_PREFIX_PATTERN = /^[a-z][a-z0-9_]*$/;

export interface BusNames {
  /** The JetStream stream holding every event of this deployment. */
  eventStream: string;
  /** Subject filter matching every event subject. */
  allEvents: string;
  eventSubject(type: string): string;
  requestSubject(name: string): string;
  /** Where a process's requests get their replies (and its JetStream pulls their messages): only it may listen there. */
  replyInbox(process: string): string;
}

export function busNames(prefix: string): BusNames {
  if (!NATS_PREFIX_PATTERN.test(prefix)) {
    throw new Error(`NATS prefix "${prefix}" must be lower-case letters, digits and underscores`);
  }
  return {
    eventStream: `${prefix}_events`,
    allEvents: `${prefix}.events.>`,
    eventSubject: (type) => `${prefix}.events.${type}`,
    requestSubject: (name) => `${prefix}.rpc.${name}`,
    replyInbox: (process) => `_INBOX.${prefix}.${process}`,
  };
}
