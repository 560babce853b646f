import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { createLogger, loggableUrl } from "@tollgate/kit";

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

  it("keeps OAuth codes, states and tokens in URLs out of access logs", () => {
    expect(loggableUrl("/api/auth/callback/google?state=s3cr3t&code=4/0AbC&scope=email")).toBe("/api/auth/callback/google?state=[redacted]&code=[redacted]&scope=email");
    expect(loggableUrl("/api/auth/verify-email?token=eyJ.x.y&callbackURL=%2F")).toBe("/api/auth/verify-email?token=[redacted]&callbackURL=%2F");
    expect(loggableUrl("/v1/products/?limit=10")).toBe("/v1/products/?limit=10");
  });
});
