import type { Knex } from "@tollgate/kit";
import type { Metadata } from "../api/metadata.js";
import type { BenefitType } from "./properties.js";

export interface BenefitRow {
  id: string;
  organization_id: string;
  type: BenefitType;
  description: string;
  properties: Record<string, unknown>;
  metadata: Metadata;
  selectable: boolean;
  deletable: boolean;
  is_deleted: boolean;
  created_at: Date;
  modified_at: Date | null;
}

export const benefits = (db: Knex) => db<BenefitRow>("benefits").where({ is_deleted: false });

export const findBenefit = (db: Knex, id: string) => benefits(db).where({ id }).first();

export async function insertBenefit(db: Knex, benefit: Pick<BenefitRow, "id" | "organization_id" | "type" | "description" | "properties" | "metadata">): Promise<BenefitRow> {
  const [row] = await db<BenefitRow>("benefits").insert(benefit).returning("*");
  if (!row) throw new Error("insert into benefits returned no row");
  return row;
}

export async function updateBenefit(db: Knex, id: string, changes: Partial<Pick<BenefitRow, "description" | "properties" | "metadata" | "is_deleted">>): Promise<BenefitRow | undefined> {
  const [row] = await db<BenefitRow>("benefits")
    .where({ id })
    .update({ ...changes, modified_at: new Date() })
    .returning("*");
  return row;
}
