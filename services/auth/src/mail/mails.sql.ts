import { claim, LeaseKeeper, randomId, whileHeld, WorkFailures, type Knex, type Lease, type Logger } from "@tollgate/kit";

export interface MailRow {
  id: string;
  to_address: string;
  subject: string;
  text: string;
  html: string;
  /** The name it is sent under, for mail sent on a seller's behalf; else MAIL_FROM's own. */
  sender_name: string | null;
  reply_to: string | null;
  run_at: Date;
  attempts: number;
  sent_at: Date | null;
  last_error: string | null;
  /** Until when the replica sending it holds it. */
  leased_until: Date | null;
  created_at: Date;
}

export interface Mail {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** Who it is sent for and answered to, when not the platform itself (a seller mailing their customer). */
  sender?: { name: string; replyTo: string | null };
}

export const insertMail = (db: Knex, mail: Mail) =>
  db<MailRow>("mails").insert({
    id: randomId(24),
    to_address: mail.to,
    subject: mail.subject,
    text: mail.text,
    html: mail.html,
    sender_name: mail.sender?.name ?? null,
    reply_to: mail.sender?.replyTo ?? null,
  });

/**
 * Mail waiting to be delivered, claimed by one replica at a time while it sends it. Its attempts
 * count failed deliveries, recorded when they fail; its claims are counted apart.
 */
const mailLease: Lease = { table: "mails", key: "id", attempts: "lease_claims", pending: (mail) => `${mail}.sent_at is null` };

/** A mail as a claim returned it, with the count of its claims, which tells this one from the next. */
export type ClaimedMail = MailRow & { leased_until: Date; lease_claims: number };
type MailClaim = Pick<ClaimedMail, "id" | "lease_claims">;

/** Keeps the mail a replica claimed held for as long as it is sending it. */
export const mailKeeper = (db: Knex, leaseMs: number, logger: Logger) =>
  new LeaseKeeper<MailClaim>({ db, lease: mailLease, leaseMs, logger, claimOf: (mail) => ({ key: mail.id, mark: mail.lease_claims }) });

/** The mail queue's name for its items (mails) in `set_aside_work`. */
export const MAIL_WORKER = "mail";

/**
 * Due mail that has attempts left and is not set aside, held for `leaseMs`; mail another replica
 * holds is left to it, so none goes out twice.
 */
export function claimDueMails(db: Knex, limit: number, maxAttempts: number, leaseMs: number): Promise<ClaimedMail[]> {
  const notSetAside = WorkFailures.notSetAside(MAIL_WORKER, "item.id");
  return claim<ClaimedMail>(db, mailLease, { limit, leaseMs, where: { sql: `item.attempts < ? and ${notSetAside.sql}`, bindings: [maxAttempts, ...notSetAside.bindings] } });
}

/** Narrows an update to the mail while this replica's claim (as `claimed` returned it) still holds it. */
const whileClaimed = (query: Knex.QueryBuilder, claimed: MailClaim) => whileHeld(mailLease, query, { key: claimed.id, mark: claimed.lease_claims });

export const markMailSent = (db: Knex, claimed: MailClaim) =>
  whileClaimed(db<MailRow>("mails").update({ sent_at: new Date(), last_error: null, leased_until: null }), claimed);

/** A mail server's answer as kept: Postgres refuses NUL in text, and a server may answer anything. */
const storableError = (error: string) => error.replaceAll("\u0000", "").slice(0, 500);

/** A failed delivery, counted where the mail is (a count changed meanwhile is added to, not lost), due again at `retryAt`. */
export const markMailFailed = (db: Knex, claimed: MailClaim, error: string, retryAt: Date) =>
  whileClaimed(db<MailRow>("mails").update({ attempts: db.raw("attempts + 1"), last_error: storableError(error), run_at: retryAt, leased_until: null }), claimed);

/** Gives up on a mail that cannot be sent at all: no attempts left. */
export const abandonMail = (db: Knex, claimed: MailClaim, maxAttempts: number, error: string) =>
  whileClaimed(db<MailRow>("mails").update({ attempts: maxAttempts, last_error: error, leased_until: null }), claimed);

export const latestMails = (db: Knex, limit: number) => db<MailRow>("mails").orderBy("created_at", "desc").limit(limit);
