import { randomId, type Knex } from "@tollgate/kit";

export interface MailRow {
  id: string;
  to_address: string;
  subject: string;
  text: string;
  html: string;
  run_at: Date;
  attempts: number;
  sent_at: Date | null;
  last_error: string | null;
  created_at: Date;
}

export interface Mail {
  to: string;
  subject: string;
  text: string;
  html: string;
}

export const insertMail = (db: Knex, mail: Mail) =>
  db<MailRow>("mails").insert({ id: randomId(24), to_address: mail.to, subject: mail.subject, text: mail.text, html: mail.html });

/**
 * Mail due for delivery that has attempts left, locked for this transaction; rows another replica
 * holds are skipped, so no mail goes out twice.
 */
export const claimDueMails = (trx: Knex.Transaction, limit: number, maxAttempts: number) =>
  trx<MailRow>("mails")
    .whereNull("sent_at")
    .where("run_at", "<=", trx.fn.now())
    .where("attempts", "<", maxAttempts)
    .orderBy("run_at")
    .limit(limit)
    .forUpdate()
    .skipLocked();

export const markMailSent = (db: Knex, id: string) => db<MailRow>("mails").where({ id }).update({ sent_at: new Date(), last_error: null });

export const markMailFailed = (db: Knex, id: string, attempts: number, error: string, retryAt: Date) =>
  db<MailRow>("mails").where({ id }).update({ attempts, last_error: error.slice(0, 500), run_at: retryAt });

export const latestMails = (db: Knex, limit: number) => db<MailRow>("mails").orderBy("created_at", "desc").limit(limit);
