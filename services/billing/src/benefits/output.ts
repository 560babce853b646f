import type { DownloadStats } from "../files/downloads.sql.js";
import type { FileRow } from "../files/files.sql.js";
import { fileReadJson } from "../files/output.js";
import type { BenefitRow } from "./benefits.sql.js";

/** What a buyer or customer may see of a benefit (Polar's BenefitPublic): what it is, never how it is set up (a Discord bot's token, say). */
export const benefitPublicJson = ({ properties: _properties, metadata: _metadata, visibility: _visibility, visibility_configurable: _configurable, ...shown }: ReturnType<typeof benefitJson>) => shown;

/** A benefit as Polar shows it (its webhook payload too). */
export const benefitJson = (benefit: BenefitRow) => ({
  id: benefit.id,
  created_at: benefit.created_at,
  modified_at: benefit.modified_at,
  type: benefit.type,
  description: benefit.description,
  selectable: benefit.selectable,
  deletable: benefit.deletable,
  is_deleted: benefit.is_deleted,
  organization_id: benefit.organization_id,
  metadata: benefit.metadata,
  visibility: "public" as const,
  visibility_configurable: false,
  properties: benefit.properties,
});

/** A file a downloadables benefit hands out, with how often and by how many customers it was downloaded through it (Polar's BenefitDownloadableFile). */
export const benefitFileJson = (file: FileRow, stats: DownloadStats | undefined, publicUrl: string) => ({
  ...fileReadJson(file, publicUrl),
  downloaders: stats?.downloaders ?? 0,
  downloads: stats?.downloads ?? 0,
});
