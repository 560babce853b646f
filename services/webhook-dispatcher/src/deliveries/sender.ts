import http from "node:http";
import https from "node:https";
import { performance } from "node:perf_hooks";
import { storableText } from "@tollgate/kit";
import { guardedLookup, literalHostProblem } from "./address-guard.js";

/** How much of a response is kept with the attempt. */
const RESPONSE_KEPT_BYTES = 2048;

export interface AttemptResult {
  succeeded: boolean;
  httpCode: number | null;
  /** The start of the response body, when there was one, as text Postgres can store. */
  response: string | null;
  /** Why there was no answer (timeout, refused address, network error), as text Postgres can store. */
  error: string | null;
  durationMs: number;
}

export interface SenderOptions {
  timeoutMs: number;
  allowPrivateUrls: boolean;
  userAgent: string;
}

/**
 * POSTs webhook bodies: a 2xx answer within the timeout is a success, anything else (another status,
 * a redirect — never followed —, a timeout, a refused or unreachable address) a failure.
 * Connections are kept alive, so a busy endpoint does not pay a handshake per delivery.
 */
export class WebhookSender {
  private readonly agents: { "http:": http.Agent; "https:": https.Agent };

  constructor(private readonly options: SenderOptions) {
    const lookup = options.allowPrivateUrls ? undefined : guardedLookup;
    this.agents = { "http:": new http.Agent({ keepAlive: true, lookup }), "https:": new https.Agent({ keepAlive: true, lookup }) };
  }

  post(target: string, body: string, headers: Record<string, string>): Promise<AttemptResult> {
    const started = performance.now();
    // What the endpoint answered is the seller's, whatever bytes it holds: kept only as storable text,
    // or recording the attempt would fail (and with it, everyone's attempts recorded alongside).
    const result = ({ response, error, ...outcome }: Omit<AttemptResult, "durationMs">): AttemptResult => ({
      ...outcome,
      response: response === null ? null : storableText(response),
      error: error === null ? null : storableText(error),
      durationMs: Math.round(performance.now() - started),
    });
    const url = new URL(target);
    const refused = this.options.allowPrivateUrls ? null : literalHostProblem(url);
    if (refused) return Promise.resolve(result({ succeeded: false, httpCode: null, response: null, error: `refused: ${refused}` }));
    const transport = url.protocol === "https:" ? https : http;
    const agent = url.protocol === "https:" ? this.agents["https:"] : this.agents["http:"];

    return new Promise((resolve) => {
      let settled = false;
      const finish = (outcome: Omit<AttemptResult, "durationMs">) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve(result(outcome));
      };
      const request = transport.request(
        url,
        {
          method: "POST",
          agent,
          headers: { ...headers, "content-type": "application/json", "content-length": Buffer.byteLength(body), "user-agent": this.options.userAgent },
        },
        (response) => {
          const httpCode = response.statusCode ?? null;
          const chunks: Buffer[] = [];
          let kept = 0;
          const done = () => {
            const text = Buffer.concat(chunks).toString("utf8");
            finish({ succeeded: httpCode !== null && httpCode >= 200 && httpCode < 300, httpCode, response: text === "" ? null : text, error: null });
          };
          response.on("data", (chunk: Buffer) => {
            if (kept >= RESPONSE_KEPT_BYTES) return;
            chunks.push(chunk.subarray(0, RESPONSE_KEPT_BYTES - kept));
            kept += chunk.length;
            // Enough is kept: stop reading a long answer rather than wait for all of it.
            if (kept >= RESPONSE_KEPT_BYTES) {
              done();
              response.destroy();
            }
          });
          response.on("end", done);
          response.on("error", (error) => finish({ succeeded: false, httpCode, response: null, error: error.message }));
        },
      );
      const timer = setTimeout(() => {
        request.destroy(new Error(`no answer within ${this.options.timeoutMs} ms`));
      }, this.options.timeoutMs);
      request.on("error", (error) => finish({ succeeded: false, httpCode: null, response: null, error: error.message }));
      request.end(body);
    });
  }

  close(): void {
    this.agents["http:"].destroy();
    this.agents["https:"].destroy();
  }
}
