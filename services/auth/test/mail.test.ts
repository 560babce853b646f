import { randomBytes } from "node:crypto";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDatabase, type Knex } from "@tollgate/kit";
import { createTestEnvironment, identityHeaders, spawnTypeScript, startTestService } from "@tollgate/kit/testing";
import { authService } from "../src/service.js";
import { linkTo, startSmtpCatcher, type SmtpCatcher } from "../../../test/stacks/smtp-catcher.js";
import { PUBLIC_URL, startAuthStack, type AuthStack } from "../../../test/stacks/auth.js";

const password = "correct horse battery staple";
const TEMPORARY_FAILURE = { code: 451, message: "Try again later" };

/** Signs up (no mail: verification is not required) and asks for a password reset, which is mailed. */
async function askForReset(stack: AuthStack, email: string): Promise<void> {
  await stack.browser().client.signUp.email({ name: email, email, password });
  const { error } = await stack.browser().client.requestPasswordReset({ email, redirectTo: "/reset" });
  if (error) throw new Error(`request-password-reset failed: ${JSON.stringify(error)}`);
}

interface QueuedMail {
  attempts: number;
  run_at: Date;
  sent_at: Date | null;
  last_error: string | null;
}

/** A user given the admin role, as `npm run admin -- grant` does, signed in. */
async function signedInAdmin(stack: AuthStack, email: string) {
  const browser = stack.browser();
  await browser.client.signUp.email({ name: "Admin", email, password });
  await stack.auth.context.db("users").where({ email }).update({ role: "admin" });
  await stack.forgetCachedSessions();
  return browser;
}

const queuedMailTo = (db: Knex, to: string) => db("mails").where({ to_address: to }).first<QueuedMail | undefined>();

/** Two auth replicas mailing through one server that takes `delayMs` to accept each message. */
async function withTwoReplicas(delayMs: number, use: (stack: AuthStack, smtp: SmtpCatcher) => Promise<void>): Promise<void> {
  const smtp = await startSmtpCatcher({ delayMs });
  const stack = await startAuthStack({ SMTP_URL: smtp.url });
  const second = await startTestService(authService, stack.environment, {
    AUTH_SECRET: stack.auth.context.config.AUTH_SECRET,
    PUBLIC_URL,
    SMTP_URL: smtp.url,
  });
  try {
    await use(stack, smtp);
  } finally {
    await second.stop();
    await stack.stop();
    await smtp.close();
  }
}

describe("mail over SMTP", () => {
  let smtp: SmtpCatcher;
  let stack: AuthStack;
  let refusal: typeof TEMPORARY_FAILURE | undefined;
  let refused = 0;

  beforeAll(async () => {
    smtp = await startSmtpCatcher({
      refuse: () => {
        if (refusal) refused++;
        return refusal;
      },
    });
    stack = await startAuthStack({ SMTP_URL: smtp.url, MAIL_FROM: "Toll Booth <booth@tollgate.example>" });
  });

  afterAll(async () => {
    await stack?.stop();
    await smtp?.close();
  });

  it("is sent from MAIL_FROM with a text and an HTML body carrying the same link to the public address", async () => {
    await askForReset(stack, "bodies@example.com");
    const mail = await smtp.next("bodies@example.com");
    expect(mail.from?.value).toEqual([{ name: "Toll Booth", address: "booth@tollgate.example" }]);
    expect(mail.subject).toBe("Reset your password");
    const link = linkTo(mail, "/api/auth/reset-password/");
    expect(link).toMatch(/^http:\/\/localhost:3000\/api\/auth\/reset-password\/[A-Za-z0-9]{24}\?callbackURL=%2Freset$/);
    expect(mail.html).toContain(`href="${link}"`);
    // Marked sent once the server has taken it.
    await expect.poll(() => queuedMailTo(stack.auth.context.db, "bodies@example.com")).toMatchObject({ attempts: 0, last_error: null, sent_at: expect.any(Date) as Date });
  });

  it("is retried after a temporary failure, a little later", async () => {
    refusal = TEMPORARY_FAILURE;
    await askForReset(stack, "retried@example.com");
    const db = stack.auth.context.db;
    await expect.poll(async () => (await queuedMailTo(db, "retried@example.com"))?.attempts, { timeout: 5_000 }).toBe(1);
    const failed = await queuedMailTo(db, "retried@example.com");
    expect(failed?.sent_at).toBeNull();
    expect(failed?.last_error).toContain("Try again later");
    // The first retry waits about two seconds.
    expect((failed?.run_at.getTime() ?? 0) - Date.now()).toBeGreaterThan(1_000);
    refusal = undefined;
    const mail = await smtp.next("retried@example.com", 10_000);
    expect(mail.subject).toBe("Reset your password");
    // The server has the mail a moment before the queue records it as sent.
    await expect.poll(() => queuedMailTo(db, "retried@example.com")).toMatchObject({ attempts: 1, sent_at: expect.any(Date) as Date });
  });

  it("is given up after eight attempts", async () => {
    refusal = TEMPORARY_FAILURE;
    try {
      await askForReset(stack, "undeliverable@example.com");
      const db = stack.auth.context.db;
      await expect.poll(async () => (await queuedMailTo(db, "undeliverable@example.com"))?.attempts, { timeout: 5_000 }).toBe(1);
      // Skip the hours of back-off: the seventh failure is on record and the next try is due now.
      const due = () => db("mails").where({ to_address: "undeliverable@example.com" }).update({ run_at: new Date() });
      await db("mails").where({ to_address: "undeliverable@example.com" }).update({ attempts: 7 });
      await due();
      await expect.poll(async () => (await queuedMailTo(db, "undeliverable@example.com"))?.attempts, { timeout: 5_000 }).toBe(8);
      const refusedSoFar = refused;
      await due();
      await new Promise((resolve) => setTimeout(resolve, 2_500));
      expect(refused).toBe(refusedSoFar);
      expect(await queuedMailTo(db, "undeliverable@example.com")).toMatchObject({ attempts: 8, sent_at: null });
    } finally {
      refusal = undefined;
    }
  });

  it("has no development mailbox", async () => {
    expect((await fetch(`${stack.gateway.url}/api/auth/dev/mailbox`)).status).toBe(404);
  });
});

describe("the development mailbox", () => {
  let stack: AuthStack;

  beforeAll(async () => {
    stack = await startAuthStack({ DEV_MAILBOX: "true" });
  });

  afterAll(async () => {
    await stack?.stop();
  });

  it("is off unless asked for, even for an admin", async () => {
    const plain = await startAuthStack();
    try {
      const admin = await signedInAdmin(plain, "off@example.com");
      expect((await admin.fetch(`${plain.gateway.url}/api/auth/dev/mailbox`)).status).toBe(404);
    } finally {
      await plain.stop();
    }
  });

  it("lists what was sent, newest first, with its links, to a platform admin only", async () => {
    await askForReset(stack, "dev@example.com");
    await stack.browser().client.sendVerificationEmail({ email: "dev@example.com", callbackURL: "/verified" });
    const mailbox = `${stack.gateway.url}/api/auth/dev/mailbox`;
    expect((await fetch(mailbox)).status).toBe(401);
    const visitor = stack.browser();
    await visitor.client.signUp.email({ name: "Visitor", email: "visitor@example.com", password });
    expect(await (await visitor.fetch(mailbox)).json()).toMatchObject({ code: "FORBIDDEN" });

    const admin = await signedInAdmin(stack, "mail.admin@example.com");
    const mails = (await (await admin.fetch(mailbox)).json()) as { to: string; subject: string; links: string[]; html: string; text: string }[];
    const [verification, reset] = mails.filter((mail) => mail.to === "dev@example.com");
    expect(Object.keys(verification ?? {}).sort()).toEqual(["html", "id", "links", "sent_at", "subject", "text", "to"]);
    expect(verification).toMatchObject({ to: "dev@example.com", subject: "Verify your e-mail address" });
    expect(verification?.links).toEqual([expect.stringMatching(/^http:\/\/localhost:3000\/api\/auth\/verify-email\?token=[\w.-]+&callbackURL=%2Fverified$/)]);
    expect(verification?.html).toContain("Verify e-mail address");
    expect(verification?.text).toContain(verification?.links[0]);
    expect(reset).toMatchObject({ to: "dev@example.com", subject: "Reset your password" });
    expect(reset?.links[0]).toMatch(/^http:\/\/localhost:3000\/api\/auth\/reset-password\/[A-Za-z0-9]{24}\?callbackURL=%2Freset$/);
  });

  it("refuses to start in production or while the site is reachable from elsewhere", async () => {
    const secret = { AUTH_SECRET: stack.auth.context.config.AUTH_SECRET, DEV_MAILBOX: "true" };
    await expect(startTestService(authService, stack.environment, { ...secret, NODE_ENV: "production", PUBLIC_URL })).rejects.toThrow(/DEV_MAILBOX=true is refused in production/);
    await expect(startTestService(authService, stack.environment, { ...secret, PUBLIC_URL: "https://shop.example.com" })).rejects.toThrow(
      /DEV_MAILBOX=true is refused while PUBLIC_URL \(https:\/\/shop\.example\.com\) is not on this machine/,
    );
  });
});

describe("the mail queue", () => {
  it("keeps mail through a crash, and the next start delivers it", async () => {
    const environment = await createTestEnvironment();
    const closed = await startSmtpCatcher();
    const smtpPort = Number(new URL(closed.url).port);
    await closed.close();
    const env = {
      ...environment.env,
      AUTH_SECRET: randomBytes(32).toString("base64url"),
      PUBLIC_URL,
      SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
      REQUIRE_EMAIL_VERIFICATION: "true",
      BCRYPT_COST: "4",
    };
    const db = createDatabase({ url: environment.databaseUrl, schema: "auth", poolMax: 1 });
    const doomed = spawnTypeScript(fileURLToPath(new URL("../src/main.ts", import.meta.url)), {
      env: { ...env, PORT: "0", HOST: "127.0.0.1", LOG_LEVEL: "info" },
    });
    try {
      const { port } = JSON.parse(await doomed.waitFor(/auth is listening/)) as { port: number };
      const signUp = await fetch(`http://127.0.0.1:${port}/api/auth/sign-up/email`, {
        method: "POST",
        headers: { "content-type": "application/json", ...identityHeaders(environment) },
        body: JSON.stringify({ name: "Patient", email: "patient@example.com", password }),
      });
      expect(signUp.status).toBe(200);
      // The mail server is down: the worker has tried once and the mail waits for its retry.
      await expect.poll(async () => (await queuedMailTo(db, "patient@example.com"))?.attempts, { timeout: 5_000 }).toBe(1);
      doomed.child.kill("SIGKILL");
      expect((await doomed.exited).signal).toBe("SIGKILL");

      const smtp = await startSmtpCatcher({ port: smtpPort });
      const restarted = await startTestService(authService, environment, env);
      try {
        const mail = await smtp.next("patient@example.com", 15_000);
        expect(mail.subject).toBe("Verify your e-mail address");
        expect(linkTo(mail, "/api/auth/verify-email")).toBeTruthy();
      } finally {
        await restarted.stop();
        await smtp.close();
      }
    } finally {
      doomed.child.kill("SIGKILL");
      await db.destroy();
    }
  });

  it("is delivered once even with two replicas working on it", async () => {
    // A slow server keeps each replica's batch in hand long enough for the other to poll meanwhile.
    await withTwoReplicas(40, async (stack, smtp) => {
      const recipients = Array.from({ length: 40 }, (_, index) => `replica.${index}@example.com`);
      await Promise.all(recipients.map((email) => askForReset(stack, email)));
      await expect.poll(() => smtp.mails.length, { timeout: 20_000 }).toBe(recipients.length);
      // Time for a duplicate, were there one, to arrive too.
      await new Promise((resolve) => setTimeout(resolve, 2_000));
      expect(smtp.mails).toHaveLength(recipients.length);
      expect(new Set(recipients.flatMap((email) => smtp.received(email).map(() => email))).size).toBe(recipients.length);
    });
  });

  it("is delivered once when the mail server takes longer than a lease to accept it, with another replica polling all the while", { timeout: 60_000 }, async () => {
    // Past the 5 s a claim holds a mail unextended; the sending replica keeps extending it.
    await withTwoReplicas(7_000, async (stack, smtp) => {
      await askForReset(stack, "slow.server@example.com");
      await expect.poll(() => smtp.mails.length, { timeout: 20_000 }).toBe(1);
      // Time for a second copy, sent by the other replica once the first claim's lease ran out, to arrive.
      await new Promise((resolve) => setTimeout(resolve, 8_000));
      expect(smtp.received("slow.server@example.com")).toHaveLength(1);
    });
  });
});
