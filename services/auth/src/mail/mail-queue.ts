import nodemailer, { type Transporter } from "nodemailer";
import { SerialRunner, type Knex, type Logger, type Worker } from "@tollgate/kit";
import { claimDueMails, insertMail, markMailFailed, markMailSent, type Mail } from "./mails.sql.js";

const MAX_ATTEMPTS = 8;
const POLL_MS = 1_000;
const BATCH = 10;

/** 2 s, 8 s, 32 s … capped at an hour: a few hours of retries for a mail server that is down. */
const retryDelayMs = (attempts: number) => Math.min(3600_000, 2_000 * 4 ** (attempts - 1));

/**
 * Outgoing mail. `queue` writes it inside the caller's transaction; the worker delivers it after
 * commit over SMTP, or, without SMTP, leaves it in the development mailbox, which is the same table.
 */
export class MailQueue implements Worker {
  private readonly transport: Transporter | null;
  private readonly runner: SerialRunner;

  constructor(
    private readonly deps: { db: Knex; logger: Logger; smtpUrl: string | undefined; from: string },
  ) {
    this.transport = deps.smtpUrl ? nodemailer.createTransport(deps.smtpUrl) : null;
    this.runner = new SerialRunner(
      () => this.deliverDue(),
      (error) => deps.logger.error({ err: error }, "mail delivery failed; retrying on the next poll"),
    );
  }

  async queue(trx: Knex, mail: Mail): Promise<void> {
    await insertMail(trx, mail);
  }

  /** Delivers what is due now; call after committing a transaction that queued mail. */
  wake(): void {
    this.runner.wake();
  }

  start(): Promise<void> {
    this.runner.poll(POLL_MS);
    return Promise.resolve();
  }

  async stop(): Promise<void> {
    await this.runner.stop();
    this.transport?.close();
  }

  private async deliverDue(): Promise<void> {
    if (!this.transport) {
      // The development mailbox: queued mail is already where it will be read.
      await this.deps.db("mails").whereNull("sent_at").update({ sent_at: new Date() });
      return;
    }
    const transport = this.transport;
    let delivered: number;
    do {
      delivered = await this.deps.db.transaction(async (trx) => {
        const due = await claimDueMails(trx, BATCH, MAX_ATTEMPTS);
        for (const mail of due) {
          try {
            await transport.sendMail({ from: this.deps.from, to: mail.to_address, subject: mail.subject, text: mail.text, html: mail.html });
            await markMailSent(trx, mail.id);
          } catch (error) {
            const attempts = mail.attempts + 1;
            const reason = error instanceof Error ? error.message : String(error);
            this.deps.logger.warn({ err: error, mail: mail.id, attempts }, attempts >= MAX_ATTEMPTS ? "giving up on a mail" : "mail not delivered; will retry");
            await markMailFailed(trx, mail.id, attempts, reason, new Date(Date.now() + retryDelayMs(attempts)));
          }
        }
        return due.length;
      });
    } while (delivered === BATCH && !this.runner.isStopped);
  }
}
