import type { z } from "zod";
import { invalidField, notFound, notPermitted, pageJson, parseNested, randomId, type Knex, type UnitOfWork } from "@tollgate/kit";
import { announceBilling } from "../events.js";
import { downloadStatsOf } from "../files/downloads.sql.js";
import { findDownloadableFiles } from "../files/files.sql.js";
import { meterIdsOf } from "../meters/meters.sql.js";
import { findSeller } from "../organizations/organizations.sql.js";
import { unlinkBenefit } from "../products/products.sql.js";
import { insertBenefit, updateBenefit, type BenefitRow } from "./benefits.sql.js";
import { activeFiles, BENEFIT_PROPERTIES, storedProperties, type BenefitType } from "./properties.js";
import { benefitFileJson, benefitJson } from "./output.js";
import type { BenefitCreate, BenefitUpdate } from "./schemas.js";
import type { Parts } from "../parts.js";

// The reads the routes make, as the store has them: a benefit by id, a page of them.
export { findBenefit, pageOfBenefits } from "./benefits.sql.js";


/** A downloadable benefit hands out files: the seller's own, uploaded ones. */
async function checkFiles(db: Knex, type: BenefitType, properties: Record<string, unknown>, organizationId: string): Promise<void> {
  if (type !== "downloadables") return;
  const wanted = properties.files as string[];
  const found = new Set((await findDownloadableFiles(db, organizationId, wanted)).map((file) => file.id));
  const missing = wanted.findIndex((id) => !found.has(id));
  if (missing >= 0) throw invalidField(["properties", "files", missing], "File not found, not uploaded yet, or not a downloadable", wanted[missing]);
}

/**
 * Meter credits are usage billing's: a seller who switched it off (feature_settings, on unless
 * turned off) cannot offer them, as Polar once refused them, and the credits are on one of the
 * seller's own meters.
 */
async function checkMeterCredits(db: Knex, type: BenefitType, properties: Record<string, unknown>, organizationId: string): Promise<void> {
  if (type !== "meter_credit") return;
  const seller = await findSeller(db, organizationId);
  if (seller?.feature_settings.usage_based_billing_enabled === false) throw invalidField(["type"], "Usage based billing is not enabled on your organization.", type);
  const meterId = properties.meter_id as string;
  if ((await meterIdsOf(db, organizationId, [meterId])).length === 0) throw invalidField(["properties", "meter_id"], "Meter not found", meterId);
}

const announceBenefit = (unit: UnitOfWork, type: "benefit.created" | "benefit.updated", row: BenefitRow) => announceBilling(unit, type, row.organization_id, benefitJson(row));

export async function createBenefit(parts: Pick<Parts, "db" | "units">, organizationId: string, body: z.output<typeof BenefitCreate>): Promise<BenefitRow> {
  await checkFiles(parts.db, body.type, body.properties, organizationId);
  await checkMeterCredits(parts.db, body.type, body.properties, organizationId);
  return parts.units.run(async (unit) => {
    const created = await insertBenefit(unit.db, {
      id: randomId(32),
      organization_id: organizationId,
      type: body.type,
      description: body.description,
      properties: storedProperties(body.type, body.properties),
      metadata: body.metadata,
    });
    announceBenefit(unit, "benefit.created", created);
    return created;
  });
}

/** Changes a benefit; it keeps its type, and new properties must suit it. */
export async function changeBenefit(parts: Pick<Parts, "db" | "units">, existing: BenefitRow, body: z.output<typeof BenefitUpdate>): Promise<BenefitRow> {
  if (body.type !== existing.type) throw invalidField(["type"], `This benefit is of type ${existing.type}`, body.type);
  let properties: Record<string, unknown> | undefined;
  if (body.properties) {
    properties = storedProperties(existing.type, parseNested(BENEFIT_PROPERTIES[existing.type], ["properties"], body.properties));
    await checkFiles(parts.db, existing.type, properties, existing.organization_id);
    await checkMeterCredits(parts.db, existing.type, properties, existing.organization_id);
  }
  return parts.units.run(async (unit) => {
    const updated = await updateBenefit(unit.db, existing.id, {
      ...(body.description ? { description: body.description } : {}),
      ...(body.metadata ? { metadata: body.metadata } : {}),
      ...(properties ? { properties } : {}),
    });
    if (!updated) throw new Error("the benefit went away while being updated");
    announceBenefit(unit, "benefit.updated", updated);
    return updated;
  });
}

/** A deleted benefit is kept for the grants that refer to it, and gone from products and lists. */
export async function deleteBenefit(parts: Pick<Parts, "db" | "units">, existing: BenefitRow): Promise<void> {
  if (!existing.deletable) throw notPermitted("This benefit cannot be deleted");
  await parts.units.run(async (unit) => {
    const deleted = await updateBenefit(unit.db, existing.id, { is_deleted: true });
    await unlinkBenefit(unit.db, existing.id);
    if (deleted) announceBenefit(unit, "benefit.updated", deleted);
  });
}

/**
 * One page of the files a downloadables benefit hands out (those not archived and still uploaded,
 * in the benefit's order), each with how it was downloaded through the benefit. Of any other type of
 * benefit there are none to list: as Polar, the benefit is not found.
 */
export async function benefitFilesPage({ db, config }: Pick<Parts, "db" | "config">, benefit: BenefitRow, page: { page: number; limit: number }) {
  if (benefit.type !== "downloadables") throw notFound("Benefit");
  const ids = activeFiles(benefit.properties);
  const uploaded = new Map((await findDownloadableFiles(db, benefit.organization_id, ids)).map((file) => [file.id, file]));
  const files = ids.flatMap((id) => uploaded.get(id) ?? []);
  const shown = files.slice((page.page - 1) * page.limit, page.page * page.limit);
  const stats = await downloadStatsOf(db, benefit.id, shown.map((file) => file.id));
  return pageJson(shown.map((file) => benefitFileJson(file, stats.get(file.id), config.PUBLIC_URL)), files.length, page.limit);
}
