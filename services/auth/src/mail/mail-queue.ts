import nodemailer, { type Transporter } from "nodemailer";
import { PollingWorker, type Knex, type Logger, type UnitOfWork, type WorkFailures } from "@tollgate/kit";
import type { AuthConfig } from "../config.js";
import { abandonMail, claimDueMails, insertMail, MAIL_WORKER, mailKeeper, markMailFailed, markMailSent, type ClaimedMail, type Mail, type MailRow } from "./mails.sql.js";

const MAX_ATTEMPTS = 8;
const POLL_MS = 1_000;
const BATCH = 10;
/**
 * A mail server that stops answering must not hold a mail for nodemailer's default ten minutes: its
 * replica would keep it, and the rest of its batch waiting, all that time.
 */
const SMTP_TIMEOUTS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 };
/**
 * How long a mail stays held after its replica last said it was still sending it (a LeaseKeeper says
 * so while it is): one that dies lets it go within this.
 */
const LEASE_MS = 5_000;

/** 2 s, 8 s, 32 s … capped at an hour: eight attempts over about two hours for a server that is down. */
const retryDelayMs = (attempts: number) => Math.min(3600_000, 2_000 * 4 ** (attempts - 1));

/** The bare address of a sender such as `Tollgate <no-reply@example.com>`. */
const addressOf = (sender: string) => /<([^<>]+)>\s*$/.exec(sender)?.[1] ?? sender.trim();

/**
 * Who a mail is from: the platform (MAIL_FROM), or a seller's name on the platform's address, which is
 * the one its mail server may send from (and that SPF and DKIM vouch for); answers go to the seller.
 */
const senderOf = (mail: MailRow, platform: string) =>
  mail.sender_name ? { from: { name: mail.sender_name, address: addressOf(platform) }, replyTo: mail.reply_to ?? undefined } : { from: platform };

/** Where due mail goes: an SMTP server, or, without one, the operator's console. */
type Deliver = (mail: MailRow) => Promise<void>;

/** A mail as the set-aside work knows it: it belongs to no seller, so only operators see it. */
const workItem = (mail: ClaimedMail) => ({ worker: MAIL_WORKER, item: mail.id, organizationId: null });

/**
 * Outgoing mail. `queue` adds it to the caller's unit of work; the worker delivers it after
 * commit over SMTP or, without SMTP_URL, prints it on the service's console, where whoever started
 * Tollgate (and nobody else) reads its links. In production mail is never printed: logs travel
 * further than a console, and a reset link in them would open an account.
 *
 * Each mail is sent and recorded on its own, a bounded number of times: one given up on is set
 * aside (logged, and counted in `work_set_aside_total{worker="mail"}`) for operators to see.
 */
export class MailQueue extends PollingWorker {
  private readonly transport: Transporter | null;
  private readonly deliver: Deliver | null;
  private readonly sending: ReturnType<typeof mailKeeper>;

  constructor(
    private readonly deps: { db: Knex; logger: Logger; failures: WorkFailures; config: Pick<AuthConfig, "SMTP_URL" | "MAIL_FROM" | "NODE_ENV"> },
  ) {
    super({ intervalMs: POLL_MS, logger: deps.logger, failure: "mail delivery failed; retrying on the next poll" });
    this.sending = mailKeeper(deps.db, LEASE_MS, deps.logger);
    const { SMTP_URL, MAIL_FROM, NODE_ENV } = deps.config;
    const transport = SMTP_URL ? nodemailer.createTransport({ url: SMTP_URL, ...SMTP_TIMEOUTS }) : null;
    this.transport = transport;
    if (transport) {
      this.deliver = async (mail) => {
        await transport.sendMail({ ...senderOf(mail, MAIL_FROM), to: mail.to_address, subject: mail.subject, text: mail.text, html: mail.html });
      };
    } else if (NODE_ENV !== "production") {
      this.deliver = (mail) => {
        deps.logger.info({ mail: { id: mail.id, to: mail.to_address } }, `mail to ${mail.to_address} (no SMTP_URL, so it is shown here): ${mail.subject}\n${mail.text}`);
        return Promise.resolve();
      };
    } else {
      this.deliver = null;
    }
  }

  /** Queues mail in a unit of work: it is delivered as soon as the unit commits, rather than on the next poll. */
  queue(unit: UnitOfWork, mail: Mail): void {
    unit.change(insertMail(unit.db, mail)).afterCommit(() => this.wake());
  }

  override start(): Promise<void> {
    if (!this.deliver) this.deps.logger.warn("SMTP_URL is not set: mail reaches nobody");
    return super.start();
  }

  override async stop(): Promise<void> {
    await super.stop();
    this.transport?.close();
  }

  /**
   * Claims due mail, sends each outside any transaction (side by side, so one slow conversation
   * keeps no other waiting past its lease), and records each as sent or failed while this claim
   * still holds it.
   */
  protected async pass(): Promise<void> {
    const { db, failures } = this.deps;
    await this.drain(BATCH, async () => {
      const due = await claimDueMails(db, BATCH, MAX_ATTEMPTS, LEASE_MS);
      const sent = await this.sending.whileHolding(due, () => Promise.all(due.map((mail) => this.sendOnItsOwn(mail))));
      await failures.succeeded(MAIL_WORKER, sent.flatMap((id) => (id ? [id] : [])));
      return due.length;
    });
  }

  /**
   * Sends one mail, whatever becomes of the others. When even recording how it went fails, that is
   * counted too, so a mail that always fails so is set aside after as many tries as a delivery gets,
   * rather than claimed again at every lease's end. The mail's id once sent.
   */
  private async sendOnItsOwn(mail: ClaimedMail): Promise<string | null> {
    try {
      return (await this.send(mail)) ? mail.id : null;
    } catch (error) {
      await this.deps.failures.failed(workItem(mail), error, { maxFailures: MAX_ATTEMPTS });
      return null;
    }
  }

  /** Delivers the mail and records how it went: whether it was sent. */
  private async send(mail: ClaimedMail): Promise<boolean> {
    const { db, logger, failures } = this.deps;
    if (!this.deliver) {
      await abandonMail(db, mail, MAX_ATTEMPTS, "SMTP_URL is not set");
      await failures.failed(workItem(mail), new Error("SMTP_URL is not set"), { maxFailures: 1 });
      return false;
    }
    try {
      await this.deliver(mail);
    } catch (error) {
      const attempts = mail.attempts + 1;
      const reason = error instanceof Error ? error.message : String(error);
      await markMailFailed(db, mail, reason, new Date(Date.now() + retryDelayMs(attempts)));
      if (attempts >= MAX_ATTEMPTS) await failures.failed(workItem(mail), error, { maxFailures: 1 });
      else logger.warn({ err: error, mail: mail.id, attempts }, "mail not delivered; will retry");
      return false;
    }
    await markMailSent(db, mail);
    return true;
  }
}
