import { invalidField, ValidationError, type Knex } from "@tollgate/kit";
import type { z } from "zod";
import { meterInUseByBenefits } from "../benefits/benefits.sql.js";
import type { Parts } from "../parts.js";
import { meterInUseByPrices } from "../products/products.sql.js";
import { clearRollups, holdMetersAlone, insertMeter, updateMeter, type MeterRow } from "./meters.sql.js";
import type { MeterDefinition } from "./rollups.js";
import type { MeterCreate, MeterUpdate } from "./schemas.js";

// The reads the routes make, as the store has them: a meter by id, a page of them.
export { findMeter, pageOfMeters } from "./meters.sql.js";

/**
 * Measuring the events a seller already sent with a new or redefined meter. It writes the customers'
 * meters from the usage events, tiers above the catalog, so service.ts hands it in (usage-events'
 * `remeasuring`).
 */
export interface Remeasuring {
  /** Empties the customers' meters of a redefined meter, which measures again from the start. */
  resetConsumption(db: Knex, meterId: string, aggregation: string): Promise<void>;
  /** Measures every event the seller already sent (and the measurer has measured) with the meter. */
  backfill(db: Knex, organizationId: string, meter: MeterDefinition): Promise<void>;
}

/** A custom unit is shown with its label, so it needs one. */
function checkUnit(unit: string | null | undefined, customLabel: string | null | undefined): void {
  if (unit === "custom" && !customLabel) throw invalidField(["custom_label"], "custom_label is required when unit is custom", customLabel ?? null);
}

/** A new meter measures every event the seller already sent, in the same transaction. */
export async function createMeter({ units, remeasuring }: Pick<Parts, "units"> & { remeasuring: Remeasuring }, organizationId: string, body: z.output<typeof MeterCreate>): Promise<MeterRow> {
  checkUnit(body.unit, body.custom_label);
  return units.run(async ({ db }) => {
    await holdMetersAlone(db, organizationId);
    const meter = await insertMeter(db, {
      organization_id: organizationId,
      name: body.name,
      unit: body.unit,
      custom_label: body.custom_label ?? null,
      custom_multiplier: body.custom_multiplier ?? null,
      filter: body.filter,
      aggregation: body.aggregation,
      metadata: body.metadata ?? {},
    });
    await remeasuring.backfill(db, organizationId, meter);
    return meter;
  });
}

/**
 * A meter that prices or credits still measure with cannot be archived, as in Polar: what they bill
 * or grant would stop meaning anything. Unarchived products and prices, and undeleted benefits, count.
 */
async function checkArchivable(db: Knex, meterId: string): Promise<void> {
  const refuse = (message: string) => new ValidationError([{ location: "body", path: ["is_archived"], message, code: "value_error", input: true }]);
  if (await meterInUseByPrices(db, meterId)) throw refuse("Cannot archive meter that is still attached to active products");
  if (await meterInUseByBenefits(db, meterId)) throw refuse("Cannot archive meter that is still referenced by active benefits");
}

/**
 * Changes a meter. A new filter or aggregation measures the seller's events again from the start,
 * so quantities and customer meters always read as the meter is defined now.
 */
export async function changeMeter({ units, remeasuring }: Pick<Parts, "units"> & { remeasuring: Remeasuring }, meter: MeterRow, body: z.output<typeof MeterUpdate>): Promise<MeterRow> {
  checkUnit(body.unit ?? meter.unit, body.custom_label === undefined ? meter.custom_label : body.custom_label);
  const redefined = Boolean(body.filter || body.aggregation);
  return units.run(async ({ db }) => {
    if (body.is_archived === true && meter.archived_at === null) await checkArchivable(db, meter.id);
    if (redefined) await holdMetersAlone(db, meter.organization_id);
    const changed = await updateMeter(db, meter.id, {
      ...(body.name ? { name: body.name } : {}),
      ...(body.unit ? { unit: body.unit } : {}),
      ...(body.custom_label !== undefined ? { custom_label: body.custom_label } : {}),
      ...(body.custom_multiplier !== undefined ? { custom_multiplier: body.custom_multiplier } : {}),
      ...(body.filter ? { filter: body.filter } : {}),
      ...(body.aggregation ? { aggregation: body.aggregation } : {}),
      ...(body.metadata ? { metadata: body.metadata } : {}),
      ...(typeof body.is_archived === "boolean" ? { archived_at: body.is_archived ? (meter.archived_at ?? new Date()) : null } : {}),
    });
    if (redefined) {
      await clearRollups(db, meter.id);
      await remeasuring.resetConsumption(db, meter.id, changed.aggregation.func);
      await remeasuring.backfill(db, meter.organization_id, changed);
    }
    return changed;
  });
}
