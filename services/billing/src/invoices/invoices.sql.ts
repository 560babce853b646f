import type { Knex } from "@tollgate/kit";
import type { DocumentKind } from "./document.js";

export interface OrderDocumentRow {
  order_id: string;
  kind: DocumentKind;
  file_id: string;
  order_modified_at: Date | null;
  created_at: Date;
}

const orderDocuments = (db: Knex) => db<OrderDocumentRow>("order_documents");

export const findOrderDocument = (db: Knex, orderId: string, kind: DocumentKind) => orderDocuments(db).where({ order_id: orderId, kind }).first();

/**
 * Records the order's document of a kind. A receipt made again replaces the last one's record; an
 * invoice made twice at once keeps the first (`replace: false`), since an invoice never changes.
 */
export function keepOrderDocument(db: Knex, document: Omit<OrderDocumentRow, "created_at">, { replace }: { replace: boolean }) {
  const insert = orderDocuments(db).insert(document).onConflict(["order_id", "kind"]);
  return replace ? insert.merge({ file_id: document.file_id, order_modified_at: document.order_modified_at, created_at: new Date() }) : insert.ignore();
}
