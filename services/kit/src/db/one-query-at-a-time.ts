import type { Knex } from "./connection.js";

/**
 * The part of knex's per-transaction client that hands a statement to the driver: below knex's own
 * checks (a query after COMMIT is refused when it is sent, not when its turn comes).
 */
interface QueryingClient {
  _query(connection: unknown, statement: unknown): Promise<unknown>;
}

/**
 * A transaction is one connection, and a connection runs one query at a time. pg still queues a
 * query sent while another runs, but warns that pg 9 will refuse it; code that loads a row's parts
 * side by side (`Promise.all`) on a transaction would then fail. The transaction's queries are queued
 * here instead, each sent when the one before has answered. Knex gives each transaction a client of
 * its own, so only this transaction is affected.
 */
export function oneQueryAtATime<Transaction extends Knex>(trx: Transaction): Transaction {
  const client = trx.client as QueryingClient;
  const send = client._query.bind(client);
  let previous: Promise<unknown> = Promise.resolve();
  client._query = (connection, statement) => {
    const answered = previous.then(() => send(connection, statement));
    previous = answered.catch(() => undefined);
    return answered;
  };
  return trx;
}
