import { existsSync } from "node:fs";
import { connect as connectTcp } from "node:net";
import type { TestProject } from "vitest/node";
import { newRunId, removeRuns, runStartedAt, type TestInfrastructure } from "./infrastructure.js";

const STALE_AFTER_MS = 3 * 3600_000;

function reachable(url: string, defaultPort: number): Promise<boolean> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = connectTcp({ host: hostname, port: Number(port || defaultPort) });
    socket.setTimeout(2_000);
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.once("connect", () => done(true));
    socket.once("error", () => done(false));
    socket.once("timeout", () => done(false));
  });
}

interface Located {
  urls: Omit<TestInfrastructure, "runId">;
  stop(): Promise<void>;
}

/** The machine's own services (CI and this project's dev machines), configured by the usual variables. */
async function localServices(): Promise<Located | string> {
  const urls = {
    postgresUrl: process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres",
    natsUrl: process.env.NATS_URL ?? "nats://127.0.0.1:4222",
    redisUrl: process.env.REDIS_URL ?? "redis://127.0.0.1:6379",
  };
  const checks = await Promise.all([
    reachable(urls.postgresUrl, 5432).then((ok) => (ok ? null : `Postgres at ${urls.postgresUrl}`)),
    reachable(urls.natsUrl, 4222).then((ok) => (ok ? null : `NATS at ${urls.natsUrl}`)),
    reachable(urls.redisUrl, 6379).then((ok) => (ok ? null : `Redis at ${urls.redisUrl}`)),
  ]);
  const missing = checks.filter((problem) => problem !== null);
  return missing.length === 0 ? { urls, stop: () => Promise.resolve() } : `not reachable: ${missing.join(", ")}`;
}

/** A laptop with Docker and no local services: throwaway containers of the same three servers. */
async function containers(): Promise<Located> {
  const { GenericContainer, Wait } = await import("testcontainers");
  const [postgres, nats, redis] = await Promise.all([
    new GenericContainer("postgres:15-alpine")
      .withEnvironment({ POSTGRES_HOST_AUTH_METHOD: "trust" })
      .withExposedPorts(5432)
      .withWaitStrategy(Wait.forLogMessage(/database system is ready to accept connections/, 2))
      .start(),
    new GenericContainer("nats:2.10-alpine").withCommand(["-js"]).withExposedPorts(4222).withWaitStrategy(Wait.forLogMessage(/Server is ready/)).start(),
    new GenericContainer("redis:7-alpine").withExposedPorts(6379).withWaitStrategy(Wait.forLogMessage(/Ready to accept connections/)).start(),
  ]);
  return {
    urls: {
      postgresUrl: `postgres://postgres@${postgres.getHost()}:${postgres.getMappedPort(5432)}/postgres`,
      natsUrl: `nats://${nats.getHost()}:${nats.getMappedPort(4222)}`,
      redisUrl: `redis://${redis.getHost()}:${redis.getMappedPort(6379)}`,
    },
    stop: async () => {
      await Promise.all([postgres.stop(), nats.stop(), redis.stop()]);
    },
  };
}

const dockerAvailable = () => Boolean(process.env.DOCKER_HOST) || existsSync("/var/run/docker.sock");

/**
 * Finds Postgres, NATS and Redis for the whole test run (local ones, else containers when Docker
 * is there), clears what crashed runs left behind, and removes this run's databases, streams and
 * keys when it ends.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  let located: Located;
  if (process.env.TOLLGATE_TEST_CONTAINERS === "1") {
    located = await containers();
  } else {
    const local = await localServices();
    if (typeof local !== "string") located = local;
    else if (dockerAvailable()) located = await containers();
    else {
      throw new Error(
        `The tests need Postgres, NATS (with -js) and Redis; ${local}. Start them (the README shows how) ` +
          "or set DATABASE_URL, NATS_URL and REDIS_URL, or install Docker for testcontainers.",
      );
    }
  }
  const runId = newRunId();
  await removeRuns(located.urls, (name) => (runStartedAt(name) ?? Infinity) < Date.now() - STALE_AFTER_MS);
  project.provide("tollgate", { ...located.urls, runId });

  return async () => {
    await removeRuns(located.urls, (name) => name.startsWith(runId));
    await located.stop();
  };
}
