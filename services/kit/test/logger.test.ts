import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { createLogger } from "@tollgate/kit";

function capture(): { lines: () => Record<string, unknown>[]; stream: Writable } {
  const chunks: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      chunks.push(chunk.toString());
      done();
    },
  });
  return { stream, lines: () => chunks.join("").trim().split("\n").map((line) => JSON.parse(line) as Record<string, unknown>) };
}

describe("logger", () => {
  it("redacts cookies, authorization headers, passwords and tokens wherever they appear", () => {
    const { stream, lines } = capture();
    const logger = createLogger({ service: "test", level: "info" }, stream);
    logger.info(
      {
        req: { headers: { cookie: "session=abc", authorization: "Bearer polar_oat_secret", "x-tollgate-identity": "eyJ", accept: "*/*" } },
        res: { headers: { "set-cookie": "session=abc" } },
        body: { email: "ada@example.com", password: "hunter2", nested: { refresh_token: "rt", client_secret: "cs" } },
        token: "top-level-token",
      },
      "signed in",
    );
    const [line] = lines();
    expect(line).toMatchObject({
      service: "test",
      msg: "signed in",
      req: { headers: { cookie: "[redacted]", authorization: "[redacted]", "x-tollgate-identity": "[redacted]", accept: "*/*" } },
      res: { headers: { "set-cookie": "[redacted]" } },
      body: { email: "ada@example.com", password: "[redacted]", nested: { refresh_token: "[redacted]", client_secret: "[redacted]" } },
      token: "[redacted]",
    });
    expect(JSON.stringify(line)).not.toMatch(/hunter2|polar_oat_secret|session=abc|top-level-token/);
  });
});
