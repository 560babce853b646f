import { describe, expect, it } from "vitest";
import { z } from "zod";
import { commonEnv, ConfigError, connectBus, ensureEventStream, loadConfig, natsSettingsOf } from "@tollgate/kit";
import { createTestEnvironment } from "@tollgate/kit/testing";

const schema = z.object(commonEnv);

describe("the event stream's replicas", () => {
  it("are 1 unless NATS_STREAM_REPLICAS asks for up to 5", () => {
    expect(loadConfig(schema, {}).NATS_STREAM_REPLICAS).toBe(1);
    expect(loadConfig(schema, { NATS_STREAM_REPLICAS: "3" }).NATS_STREAM_REPLICAS).toBe(3);
    for (const wrong of ["0", "6", "three"]) expect(() => loadConfig(schema, { NATS_STREAM_REPLICAS: wrong }), wrong).toThrow(ConfigError);
  });

  it("are what the stream is created with", async () => {
    const environment = await createTestEnvironment();
    const connectWith = (replicas: string | undefined) =>
      connectBus({
        ...natsSettingsOf(loadConfig(schema, { NATS_URL: environment.natsUrl, NATS_STREAM_REPLICAS: replicas })),
        prefix: environment.natsPrefix,
        name: "event-stream-test",
      });

    const single = await connectWith(undefined);
    const three = await connectWith("3");
    try {
      await ensureEventStream(single);
      expect((await single.jsm.streams.info(single.names.eventStream)).config.num_replicas).toBe(1);
      // The tests' NATS is one server, which cannot keep three copies: its refusal shows the count reached it.
      await expect(ensureEventStream(three)).rejects.toThrow(/replicas > 1 not supported in non-clustered mode/);
    } finally {
      await single.nc.close();
      await three.nc.close();
    }
  });
});
