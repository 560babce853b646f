import nodemailer, { type Transporter } from "nodemailer";
import { PollingWorker, type Knex, type Logger } from "@tollgate/kit";
import type { AuthConfig } from "../auth.js";
import { claimDueMails, insertMail, markMailFailed, markMailSent, markMailboxDelivered, type Mail } from "./mails.sql.js";

const MAX_ATTEMPTS = 8;
const POLL_MS = 1_000;
const BATCH = 10;
/**
 * Due mail stays locked while it is sent, so a mail server that stops answering must not hold the
 * transaction for nodemailer's default ten minutes.
 */
const SMTP_TIMEOUTS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 };

/** 2 s, 8 s, 32 s … capped at an hour: eight attempts over about two hours for a server that is down. */
const retryDelayMs = (attempts: number) => Math.min(3600_000, 2_000 * 4 ** (attempts - 1));

/**
 * Outgoing mail. `queue` writes it inside the caller's transaction; the worker delivers it after
 * commit over SMTP, or, without SMTP, leaves it in the development mailbox, which is the same table.
 */
export class MailQueue extends PollingWorker {
  private readonly transport: Transporter | null;

  constructor(
    private readonly deps: { db: Knex; logger: Logger; config: Pick<AuthConfig, "SMTP_URL" | "MAIL_FROM" | "NODE_ENV"> },
  ) {
    super({ intervalMs: POLL_MS, logger: deps.logger, failure: "mail delivery failed; retrying on the next poll" });
    const { SMTP_URL } = deps.config;
    this.transport = SMTP_URL ? nodemailer.createTransport({ url: SMTP_URL, ...SMTP_TIMEOUTS }) : null;
  }

  async queue(trx: Knex, mail: Mail): Promise<void> {
    await insertMail(trx, mail);
  }

  /** A transaction whose queued mail is delivered as soon as it commits, rather than on the next poll. */
  async transaction<T>(work: (trx: Knex.Transaction) => Promise<T>): Promise<T> {
    const result = await this.deps.db.transaction(work);
    this.wake();
    return result;
  }

  override start(): Promise<void> {
    if (!this.transport && this.deps.config.NODE_ENV === "production") {
      this.deps.logger.warn("SMTP_URL is not set: mail is kept in the database and reaches nobody");
    }
    return super.start();
  }

  override async stop(): Promise<void> {
    await super.stop();
    this.transport?.close();
  }

  protected async pass(): Promise<void> {
    const { db, logger, config } = this.deps;
    if (!this.transport) {
      await markMailboxDelivered(db);
      return;
    }
    const transport = this.transport;
    await this.drain(BATCH, () =>
      db.transaction(async (trx) => {
        const due = await claimDueMails(trx, BATCH, MAX_ATTEMPTS);
        for (const mail of due) {
          try {
            await transport.sendMail({ from: config.MAIL_FROM, to: mail.to_address, subject: mail.subject, text: mail.text, html: mail.html });
            await markMailSent(trx, mail.id);
          } catch (error) {
            const attempts = mail.attempts + 1;
            const reason = error instanceof Error ? error.message : String(error);
            logger.warn({ err: error, mail: mail.id, attempts }, attempts >= MAX_ATTEMPTS ? "giving up on a mail" : "mail not delivered; will retry");
            await markMailFailed(trx, mail.id, attempts, reason, new Date(Date.now() + retryDelayMs(attempts)));
          }
        }
        return due.length;
      }),
    );
  }
}
