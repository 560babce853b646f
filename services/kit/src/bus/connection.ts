import { connect, nanos, type NatsConnection } from "@nats-io/transport-node";
import {
  jetstream,
  jetstreamManager,
  JetStreamApiError,
  RetentionPolicy,
  StorageType,
  type JetStreamClient,
  type JetStreamManager,
} from "@nats-io/jetstream";
import { busNames, type BusNames } from "@tollgate/proto";

export interface BusConnection {
  nc: NatsConnection;
  js: JetStreamClient;
  jsm: JetStreamManager;
  names: BusNames;
}

export async function connectBus(options: { url: string; prefix: string; name: string }): Promise<BusConnection> {
  // No async stack traces on requests: the relay's JetStream publishes are requests, and capturing a
  // caller's stack for each cost more than the publish itself; errors still name the subject.
  const nc = await connect({ servers: options.url, name: options.name, maxReconnectAttempts: -1, noAsyncTraces: true });
  const jsm = await jetstreamManager(nc);
  return { nc, js: jetstream(nc), jsm, names: busNames(options.prefix) };
}

const EVENT_RETENTION_DAYS = 7;
/** Re-publishing an event id within this window is dropped by JetStream (the relay's retry). */
const DUPLICATE_WINDOW_MS = 2 * 60_000;

/**
 * Creates the event stream, or brings an existing one to this configuration. Every process calls it
 * at start; concurrent identical creates are accepted by the server.
 */
export async function ensureEventStream(bus: BusConnection): Promise<void> {
  const config = {
    name: bus.names.eventStream,
    subjects: [bus.names.allEvents],
    retention: RetentionPolicy.Limits,
    storage: StorageType.File,
    max_age: nanos(EVENT_RETENTION_DAYS * 24 * 3600 * 1000),
    duplicate_window: nanos(DUPLICATE_WINDOW_MS),
  };
  try {
    await bus.jsm.streams.add(config);
  } catch (error) {
    // 10058: a stream of this name exists with another configuration (an older release's).
    if (!(error instanceof JetStreamApiError) || error.code !== 10058) throw error;
    await bus.jsm.streams.update(config.name, config);
  }
}
