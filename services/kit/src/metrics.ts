import { collectDefaultMetrics, Counter, Histogram, Registry } from "prom-client";

/** One registry per process (or per in-process service in tests), exposed at `/metrics`. */
export class Metrics {
  readonly registry = new Registry();

  readonly httpDuration = new Histogram({
    name: "http_request_duration_seconds",
    help: "HTTP request latency by method, matched route and status",
    labelNames: ["method", "route", "status"] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [this.registry],
  });

  readonly outboxPublished = new Counter({
    name: "outbox_published_events_total",
    help: "Events the outbox relay published to JetStream",
    registers: [this.registry],
  });

  readonly outboxPublishLag = new Histogram({
    name: "outbox_publish_lag_seconds",
    help: "Time from an event's commit to its JetStream acknowledgement",
    buckets: [0.005, 0.01, 0.05, 0.1, 0.5, 1, 5, 30, 120],
    registers: [this.registry],
  });

  readonly consumerRedeliveries = new Counter({
    name: "bus_consumer_redeliveries_total",
    help: "Events delivered again to a consumer after a failure or a missed ack",
    labelNames: ["consumer"] as const,
    registers: [this.registry],
  });

  readonly consumerOutcomes = new Counter({
    name: "bus_consumer_events_total",
    help: "Events seen by a consumer, by outcome (applied, duplicate, ignored, retried, dead_lettered)",
    labelNames: ["consumer", "outcome"] as const,
    registers: [this.registry],
  });

  readonly workSetAside = new Counter({
    name: "work_set_aside_total",
    help: "Background work items set aside after failing too often (see set_aside_work), by worker",
    labelNames: ["worker"] as const,
    registers: [this.registry],
  });

  constructor(service: string) {
    this.registry.setDefaultLabels({ service });
    collectDefaultMetrics({ register: this.registry });
  }
}
