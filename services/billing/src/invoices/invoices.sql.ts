import { randomId, type Knex } from "@tollgate/kit";
import type { DocumentKind } from "./document.js";

export interface OrderDocumentRow {
  id: string;
  order_id: string;
  /** The refund a credit note is for; null for an invoice or receipt. */
  refund_id: string | null;
  kind: DocumentKind;
  file_id: string;
  order_modified_at: Date | null;
  created_at: Date;
}

const orderDocuments = (db: Knex) => db<OrderDocumentRow>("order_documents");

/** The order's invoice or receipt, if made. */
export const findOrderDocument = (db: Knex, orderId: string, kind: Exclude<DocumentKind, "credit_note">) => orderDocuments(db).where({ order_id: orderId, kind }).whereNull("refund_id").first();

export const findCreditNote = (db: Knex, refundId: string) => orderDocuments(db).where({ refund_id: refundId }).first();

/** The order's credit notes, in the order they were made (which numbers them). */
export const creditNotesOfOrder = (db: Knex, orderId: string) => orderDocuments(db).where({ order_id: orderId, kind: "credit_note" }).orderBy("created_at").orderBy("id");


/**
 * Records a document of the order. A receipt made again replaces the last one's record; an invoice
 * or credit note made twice at once keeps the first (`replace: false`), since they never change.
 */
export function keepOrderDocument(db: Knex, document: Omit<OrderDocumentRow, "id" | "created_at">, { replace }: { replace: boolean }) {
  const insert = orderDocuments(db).insert({ id: randomId(32), ...document });
  const conflict = document.refund_id ? insert.onConflict(db.raw("(refund_id) where refund_id is not null")) : insert.onConflict(db.raw("(order_id, kind) where refund_id is null"));
  return replace ? conflict.merge({ file_id: document.file_id, order_modified_at: document.order_modified_at, created_at: new Date() }) : conflict.ignore();
}
