import { readFileSync } from "node:fs";
import { connect, credsAuthenticator, nanos, nkeyAuthenticator, type ConnectionOptions, type NatsConnection } from "@nats-io/transport-node";
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
  /** The process's name on the bus: its NATS user, its replies' inbox, and what proto's BUS_ACCESS holds it to. */
  process: string;
  nc: NatsConnection;
  js: JetStreamClient;
  jsm: JetStreamManager;
  names: BusNames;
  /** How many servers keep a copy of the event stream. */
  streamReplicas: number;
  /**
   * Resolves at once while the server is there; while it is away (restarting), once the connection is
   * back. What is published meanwhile waits in a buffer and goes out on reconnecting, when the
   * responders of a request may not have subscribed again yet: such a request is lost.
   */
  reachable(): Promise<void>;
}

/** How to reach NATS: its URL (which may carry a user and password, or a token as the user) and other credentials. */
export interface NatsSettings {
  url: string;
  /** A .creds file: a user JWT with its NKey seed. */
  credsFile?: string;
  /** An NKey seed, for a server that authenticates by NKey alone. */
  nkeySeed?: string;
  /** The process's own password, its user being the process's name; instead of the URL's credentials. */
  password?: string;
  /** Copies of the event stream a cluster keeps; 1 when unset. */
  streamReplicas?: number;
}

/**
 * nats.js's connection options for these settings, for the process named `process`; the URL's
 * credentials travel as options, not in the server list.
 */
export function natsConnectOptions(settings: NatsSettings, process?: string): ConnectionOptions {
  const url = new URL(settings.url);
  const user = decodeURIComponent(url.username);
  const pass = decodeURIComponent(url.password);
  url.username = "";
  url.password = "";
  const options: ConnectionOptions = { servers: url.toString().replace(/\/$/, "") };
  if (settings.password && process) Object.assign(options, { user: process, pass: settings.password });
  else if (user && pass) Object.assign(options, { user, pass });
  else if (user) options.token = user;
  if (settings.credsFile) options.authenticator = credsAuthenticator(new Uint8Array(readFileSync(settings.credsFile)));
  else if (settings.nkeySeed) options.authenticator = nkeyAuthenticator(new TextEncoder().encode(settings.nkeySeed));
  return options;
}

/** The NATS settings of a process's configuration. */
export const natsSettingsOf = (config: { NATS_URL: string; NATS_CREDS_FILE?: string; NATS_NKEY_SEED?: string; NATS_PASSWORD?: string; NATS_STREAM_REPLICAS?: number }): NatsSettings => ({
  url: config.NATS_URL,
  credsFile: config.NATS_CREDS_FILE,
  nkeySeed: config.NATS_NKEY_SEED,
  password: config.NATS_PASSWORD,
  streamReplicas: config.NATS_STREAM_REPLICAS,
});

export async function connectBus(options: NatsSettings & { prefix: string; name: string }): Promise<BusConnection> {
  // No async stack traces on requests: the relay's JetStream publishes are requests, and capturing a
  // caller's stack for each cost more than the publish itself; errors still name the subject.
  // Reconnecting every 250 ms rather than nats.js's 2 s: a server restarting is back within moments,
  // and requests made meanwhile wait for the connection (up to their timeout) rather than fail.
  // Replies come to an inbox of the process's own, which its NATS user alone may subscribe to.
  const names = busNames(options.prefix);
  const nc = await connect({
    ...natsConnectOptions(options, options.name),
    name: options.name,
    inboxPrefix: names.replyInbox(options.name),
    maxReconnectAttempts: -1,
    reconnectTimeWait: 250,
    noAsyncTraces: true,
  });
  const jsm = await jetstreamManager(nc);
  return { process: options.name, nc, js: jetstream(nc), jsm, names, streamReplicas: options.streamReplicas ?? 1, reachable: followServer(nc) };
}

/** Follows a connection's status events: a promise of the server's return while it is away, none while it is there (or the connection closed). */
function followServer(nc: NatsConnection): () => Promise<void> {
  let away: Promise<void> | null = null;
  let back = () => {};
  void (async () => {
    for await (const status of nc.status()) {
      if (status.type === "disconnect" && !away) away = new Promise((resolve) => (back = resolve));
      else if (status.type === "reconnect" || status.type === "close") {
        away = null;
        back();
      }
    }
  })();
  return () => away ?? Promise.resolve();
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
    // Every process asks for the same count, so a release that changes it resizes the stream in place.
    num_replicas: bus.streamReplicas,
  };
  try {
    await bus.jsm.streams.add(config);
  } catch (error) {
    // 10058: a stream of this name exists with another configuration (an older release's).
    if (!(error instanceof JetStreamApiError) || error.code !== 10058) throw error;
    await bus.jsm.streams.update(config.name, config);
  }
}
