/**
 * What a second factor adds to signing in, on each server: a user with the factor signs in again and
 * again, one sign-in at a time, beside a user with a password only. The difference of their median
 * latencies is what the factor adds for one person signing in; the CPU the server's processes used per
 * sign-in (from /proc) is what it costs the machine, and is less moved by whatever else runs.
 *
 * A factor a build does not offer (its enrolment answers 404) is reported as not available rather
 * than failing the bench, so the bench runs on builds before and after the factor lands.
 */
import type { PublicKeyCredentialCreationOptionsJSON, PublicKeyCredentialRequestOptionsJSON } from "@simplewebauthn/server";
import * as OTPAuth from "otpauth";
import { SoftwareAuthenticator } from "../../test/stacks/software-authenticator.js";
import { cpuUse, snapshot, type CpuGroups } from "../cpu.js";
import { median } from "../support.js";

/** One of the servers under test, as a browser reaches it. */
export interface Server {
  name: string;
  /** The better-auth API's base URL. */
  api: string;
  origin: string;
  /** The CPU groups (see bench/cpu.ts) whose processes serve it. */
  cpuGroups: string[];
}

/** One whole sign-in: resolves true when it ended signed in. */
type SignIn = () => Promise<boolean>;

interface SecondFactor {
  name: string;
  /**
   * Gives a signed-up user this factor, and returns their sign-in; `unavailable` says why the server
   * cannot (a build without the factor's endpoints, or a factor the bench cannot yet present).
   */
  enrol(server: Server, email: string, password: string): Promise<SignIn | { unavailable: string }>;
}

export interface Series {
  /** Milliseconds, sorted. */
  latencies: number[];
  failures: number;
  /** CPU the server's processes used per sign-in, in ms; null without /proc. */
  cpuMs: number | null;
}

export interface FactorResult {
  factor: string;
  server: string;
  outcome: { unavailable: string } | { plain: Series; withFactor: Series };
}

// ---------------------------------------------------------------------------------------------
// A browser's cookies, and the requests of a sign-in

class CookieJar {
  private readonly cookies = new Map<string, string>();

  take(response: Response): void {
    for (const setCookie of response.headers.getSetCookie()) {
      const pair = setCookie.split(";")[0] ?? "";
      const at = pair.indexOf("=");
      const [name, value] = [pair.slice(0, at), pair.slice(at + 1)];
      if (value === "" || /max-age=0\b/i.test(setCookie)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }

  get header(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join("; ");
  }
}

async function post(server: Server, path: string, body: object, jar: CookieJar): Promise<Response> {
  const response = await fetch(`${server.api}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: server.origin, cookie: jar.header },
    body: JSON.stringify(body),
  });
  jar.take(response);
  return response;
}

async function get(server: Server, path: string, jar: CookieJar): Promise<Response> {
  const response = await fetch(`${server.api}${path}`, { headers: { origin: server.origin, cookie: jar.header } });
  jar.take(response);
  return response;
}

/** Signs in with the password; the answer when it is a 2xx, else null. */
async function passwordStep(server: Server, email: string, password: string, jar: CookieJar): Promise<Record<string, unknown> | null> {
  const response = await post(server, "/sign-in/email", { email, password }, jar);
  const body = (await response.json().catch(() => null)) as Record<string, unknown> | null;
  return response.ok ? body : null;
}

const signedIn = (body: Record<string, unknown> | null, email: string) =>
  typeof body?.token === "string" && (body.user as { email?: unknown } | undefined)?.email === email;

/** A password sign-in, for a user with no second factor: the baseline. */
const passwordSignIn =
  (server: Server, email: string, password: string): SignIn =>
  async () =>
    signedIn(await passwordStep(server, email, password, new CookieJar()), email);

// ---------------------------------------------------------------------------------------------
// The factors

/**
 * TOTP as better-auth's two-factor plugin does it: enabling it with the password gives the secret's
 * otpauth URI, and the first code verified turns it on. Signing in then answers `twoFactorRedirect`
 * with a two_factor cookie, and POST /two-factor/verify-totp with a current code opens the session.
 */
const totp: SecondFactor = {
  name: "TOTP",
  async enrol(server, email, password) {
    const jar = new CookieJar();
    if (!signedIn(await passwordStep(server, email, password, jar), email)) throw new Error(`${server.name}: the TOTP user cannot sign in`);
    const enabled = await post(server, "/two-factor/enable", { password }, jar);
    if (enabled.status === 404) return { unavailable: "not available in this build (POST /two-factor/enable answers 404)" };
    if (!enabled.ok) throw new Error(`${server.name}: /two-factor/enable answered ${enabled.status}: ${await enabled.text()}`);
    const { totpURI } = (await enabled.json()) as { totpURI?: unknown };
    if (typeof totpURI !== "string") throw new Error(`${server.name}: /two-factor/enable gave no totpURI`);
    const generator = OTPAuth.URI.parse(totpURI);
    if (!(generator instanceof OTPAuth.TOTP)) throw new Error(`${server.name}: ${totpURI} is not a TOTP URI`);
    // Confirmed with the previous step's code (servers take one step either side): Tollgate takes
    // each step once and no earlier one after it, so the sign-in's current code still works.
    const previousStep = generator.generate({ timestamp: Date.now() - generator.period * 1000 });
    const confirmed = await post(server, "/two-factor/verify-totp", { code: previousStep }, jar);
    if (!confirmed.ok) throw new Error(`${server.name}: confirming TOTP answered ${confirmed.status}: ${await confirmed.text()}`);

    return async () => {
      const attempt = new CookieJar();
      const first = await passwordStep(server, email, password, attempt);
      if (first?.twoFactorRedirect !== true) return false;
      const verified = await post(server, "/two-factor/verify-totp", { code: generator.generate() }, attempt);
      return verified.ok && signedIn((await verified.json()) as Record<string, unknown>, email);
    };
  },
};

/**
 * A passkey, as better-auth's passkey plugin takes it from a browser: registered after a password
 * sign-in (GET /passkey/generate-register-options, POST /passkey/verify-registration) by a software
 * authenticator, then a sign-in of its own (GET /passkey/generate-authenticate-options, POST
 * /passkey/verify-authentication) in place of the password: an ES256 signature checked instead of a
 * password hash, so its "added" time is usually below zero.
 */
const passkey: SecondFactor = {
  name: "passkey",
  async enrol(server, email, password) {
    const jar = new CookieJar();
    if (!signedIn(await passwordStep(server, email, password, jar), email)) throw new Error(`${server.name}: the passkey user cannot sign in`);
    const options = await get(server, "/passkey/generate-register-options", jar);
    if (options.status === 404) return { unavailable: "not available in this build (GET /passkey/generate-register-options answers 404)" };
    if (!options.ok) throw new Error(`${server.name}: /passkey/generate-register-options answered ${options.status}: ${await options.text()}`);
    const authenticator = new SoftwareAuthenticator(server.origin);
    // better-auth's client sends the browser's answer without its extension results.
    const { clientExtensionResults: _registrationExtensions, ...registration } = authenticator.createCredential((await options.json()) as PublicKeyCredentialCreationOptionsJSON);
    const registered = await post(server, "/passkey/verify-registration", { response: registration }, jar);
    if (!registered.ok) throw new Error(`${server.name}: /passkey/verify-registration answered ${registered.status}: ${await registered.text()}`);

    return async () => {
      const attempt = new CookieJar();
      const challenge = await get(server, "/passkey/generate-authenticate-options", attempt);
      if (!challenge.ok) return false;
      const { clientExtensionResults: _assertionExtensions, ...assertion } = authenticator.signAssertion((await challenge.json()) as PublicKeyCredentialRequestOptionsJSON);
      const verified = await post(server, "/passkey/verify-authentication", { response: assertion }, attempt);
      const body = (await verified.json().catch(() => null)) as { session?: { token?: unknown } } | null;
      return verified.ok && typeof body?.session?.token === "string";
    };
  },
};

const FACTORS: SecondFactor[] = [totp, passkey];

// ---------------------------------------------------------------------------------------------
// The measurement

/**
 * For each server and factor: `rounds` rounds of `signIns` password-only sign-ins then as many with
 * the factor, one at a time, taking turns so that what else the machine does falls on both alike.
 * Each sign-in with the factor is a different user's: Tollgate refuses a TOTP code used before, as
 * authenticators' servers should, so one user could sign in only once in each 30 s step.
 */
export async function measureSecondFactors(
  servers: Server[],
  options: { password: string; baselineEmail: string; signIns: number; rounds: number; groups: () => Promise<CpuGroups>; progress: (line: string) => void },
): Promise<FactorResult[]> {
  const results: FactorResult[] = [];
  for (const factor of FACTORS) {
    for (const server of servers) {
      const enrol = async (n: number) => {
        const email = `bench-${factor.name.toLowerCase()}-${n}@example.com`;
        const signUp = await post(server, "/sign-up/email", { name: "Bench", email, password: options.password }, new CookieJar());
        if (!signUp.ok) throw new Error(`${server.name}: signing up ${email} answered ${signUp.status}`);
        return factor.enrol(server, email, options.password);
      };
      const first = await enrol(0);
      if ("unavailable" in first) {
        options.progress(`  ${server.name} ${factor.name}: ${first.unavailable}`);
        results.push({ factor: factor.name, server: server.name, outcome: first });
        continue;
      }
      options.progress(`  ${server.name}: enrolling ${options.rounds * options.signIns} users with ${factor.name}, one for each sign-in`);
      const enrolled: SignIn[] = [first];
      while (enrolled.length < options.rounds * options.signIns) {
        const next = await enrol(enrolled.length);
        if ("unavailable" in next) throw new Error(`${server.name}: ${factor.name} became unavailable: ${next.unavailable}`);
        enrolled.push(next);
      }
      const plain = passwordSignIn(server, options.baselineEmail, options.password);
      const runs: Series[][] = [[], []];
      for (let round = 0; round < options.rounds; round++) {
        const users = enrolled.slice(round * options.signIns, (round + 1) * options.signIns);
        runs[0]?.push(await series(Array.from({ length: options.signIns }, () => plain), server, options));
        runs[1]?.push(await series(users, server, options));
      }
      const [plainRuns = [], factorRuns = []] = runs;
      const outcome = { plain: merged(plainRuns), withFactor: merged(factorRuns) };
      options.progress(
        `  ${server.name}: password ${median(outcome.plain.latencies).toFixed(1)} ms, with ${factor.name} ${median(outcome.withFactor.latencies).toFixed(1)} ms (medians, one at a time)`,
      );
      results.push({ factor: factor.name, server: server.name, outcome });
    }
  }
  return results;
}

/** The sign-ins one after another, with their latencies and the CPU the server's processes used per sign-in. */
async function series(signIns: SignIn[], server: Server, options: { groups: () => Promise<CpuGroups> }): Promise<Series> {
  const latencies: number[] = [];
  let failures = 0;
  const before = await snapshot();
  for (const signIn of signIns) {
    const started = performance.now();
    const ok = await signIn().catch(() => false);
    latencies.push(performance.now() - started);
    if (!ok) failures += 1;
  }
  const cpu = await cpuUse(before, await snapshot(), await options.groups());
  const cpuMs = cpu ? (server.cpuGroups.reduce((sum, group) => sum + (cpu.cores[group] ?? 0), 0) * cpu.seconds * 1000) / signIns.length : null;
  return { latencies, failures, cpuMs };
}

function merged(runs: Series[]): Series {
  const cpu = runs.map((run) => run.cpuMs);
  return {
    latencies: runs.flatMap((run) => run.latencies).sort((a, b) => a - b),
    failures: runs.reduce((sum, run) => sum + run.failures, 0),
    cpuMs: cpu.some((ms) => ms === null) ? null : cpu.reduce<number>((sum, ms) => sum + (ms ?? 0), 0) / runs.length,
  };
}

// ---------------------------------------------------------------------------------------------
// The report

export function secondFactorReport(results: FactorResult[], signIns: number, rounds: number): string {
  const ms = (value: number) => `${value.toFixed(1)} ms`.padStart(10);
  const signed = (value: number) => `${value >= 0 ? "+" : ""}${value.toFixed(1)} ms`.padStart(10);
  const lines = results.map(({ factor, server, outcome }) => {
    const label = `  ${`${factor}, ${server}`.padEnd(28)}`;
    if ("unavailable" in outcome) return `${label}${outcome.unavailable}`;
    const { plain, withFactor } = outcome;
    const added = median(withFactor.latencies) - median(plain.latencies);
    const cpu = plain.cpuMs !== null && withFactor.cpuMs !== null ? `${ms(plain.cpuMs)}${ms(withFactor.cpuMs)}${signed(withFactor.cpuMs - plain.cpuMs)}` : "   (no /proc here)";
    const broken = plain.failures + withFactor.failures > 0 ? `   BROKEN: ${plain.failures} password and ${withFactor.failures} ${factor} sign-ins failed` : "";
    return `${label}${ms(median(plain.latencies))}${ms(median(withFactor.latencies))}${signed(added)}${cpu}${broken}`;
  });
  return `
second factor: what it adds to a sign-in (${rounds} × ${signIns} sign-ins each way, one at a time)
                                  latency, median                  CPU per sign-in (servers, Postgres, Redis)
                               password  + factor     added    password  + factor     added
${lines.join("\n")}
  "password" is the bench's password-only user on the same server, measured in turns with the factor's
  users (one for each sign-in: a TOTP code is good for one sign-in on Tollgate)
`;
}
