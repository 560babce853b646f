import type { Knex } from "@tollgate/kit";
import type { CustomerMail } from "@tollgate/proto";
import { benefitsWithIds, grantedGrantsOf, type GrantSource } from "../benefits/benefits.sql.js";
import { uploadedFilesWithIds } from "../files/files.sql.js";
import { findLicenseKey } from "../license-keys/license-keys.sql.js";

type Delivery = Extract<CustomerMail, { kind: "order_receipt" }>["deliveries"][number];

/**
 * What a purchase handed over at once, for its receipt: each license key in full, and each
 * downloadable benefit's files by name (downloaded from the portal), in the order they were granted.
 * The grants were written with the order, so they are there when its order.paid is handled.
 */
export async function deliveriesOf(db: Knex, source: GrantSource): Promise<Delivery[]> {
  const grants = await grantedGrantsOf(db, source).orderBy("created_at");
  if (grants.length === 0) return [];
  const benefits = new Map((await benefitsWithIds(db, [...new Set(grants.map((grant) => grant.benefit_id))])).map((benefit) => [benefit.id, benefit]));
  const deliveries = await Promise.all(
    grants.map(async (grant): Promise<Delivery | null> => {
      const benefit = benefits.get(grant.benefit_id);
      if (benefit?.type === "license_keys") {
        const keyId = (grant.properties as { license_key_id?: string }).license_key_id;
        const key = keyId ? await findLicenseKey(db, keyId) : undefined;
        return key ? { kind: "license_key", benefit: benefit.description, key: key.key } : null;
      }
      if (benefit?.type === "downloadables") {
        const files = await uploadedFilesWithIds(db, (grant.properties as { files?: string[] }).files ?? []);
        return files.length > 0 ? { kind: "downloads", benefit: benefit.description, files: files.map((file) => file.name) } : null;
      }
      return null;
    }),
  );
  return deliveries.filter((delivery): delivery is Delivery => delivery !== null);
}
