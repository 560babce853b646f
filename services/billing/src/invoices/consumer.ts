import { z } from "zod";
import { on, type ConsumerDefinition } from "@tollgate/kit";
import { billingEvents } from "@tollgate/proto";
import type { FileStorage } from "../files/storage.js";
import { findRefund } from "../refunds/service.js";
import { issueCreditNote } from "./service.js";

/**
 * A credit note for each refund that goes through on an invoiced order, made from refund.updated in
 * the consumer's transaction: a refund announced again makes none twice.
 */
export function creditNotesConsumer(storage: FileStorage): ConsumerDefinition {
  return {
    name: "billing-credit-notes",
    handlers: [
      on(billingEvents["refund.updated"], async ({ data }, { trx }) => {
        const { id } = z.object({ id: z.string() }).parse(data.payload);
        const refund = await findRefund(trx, id);
        if (refund) await issueCreditNote({ db: trx, storage }, refund);
      }),
    ],
  };
}
