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

  it("keeps every credential a URL carries, in its path or its query, out of access logs", () => {
    const cases: [string, string][] = [
      ["/api/auth/reset-password/AbC123xyz?callbackURL=%2Freset", "/api/auth/reset-password/[redacted]?callbackURL=%2Freset"],
      ["//API/Auth//reset-password/AbC123xyz", "//API/Auth//reset-password/[redacted]"],
      ["/v1/checkouts/client/polar_c_abc123/confirm", "/v1/checkouts/client/[redacted]/confirm"],
      ["/v1/checkout-links/polar_cl_abc123/redirect?customer_email=a%40b.c", "/v1/checkout-links/[redacted]/redirect?customer_email=a%40b.c"],
      ["/v1/files/downloads/eyJmaWxlIjoi.c2ln", "/v1/files/downloads/[redacted]"],
      ["/v1/files/uploads/eyJmaWxlIjoi.c2ln", "/v1/files/uploads/[redacted]"],
      ["/v1/customer-portal/downloadables/eyJjdXN0b21lciI6.c2ln", "/v1/customer-portal/downloadables/[redacted]"],
      ["/v1/customer-portal/downloadables/?benefit_id=b1", "/v1/customer-portal/downloadables/?benefit_id=b1"],
      ["/checkout/polar_c_abc123/confirmation", "/checkout/[redacted]/confirmation"],
      ["/shop/portal?customer_session_token=polar_cst_abc", "/shop/portal?customer_session_token=[redacted]"],
      ["/shop/portal?customer%5Fsession%5Ftoken=opaque", "/shop/portal?customer%5Fsession%5Ftoken=[redacted]"],
      ["/v1/anything?note=polar_oat_abc123", "/v1/anything?note=[redacted]"],
      ["/v1/checkouts/ch_123", "/v1/checkouts/ch_123"],
      ["/v1/checkout-links/", "/v1/checkout-links/"],
    ];
    for (const [url, logged] of cases) expect(loggableUrl(url), url).toBe(logged);
  });
});
