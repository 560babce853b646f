import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

/** A path from the repository's root. */
export const root = (path: string) => fileURLToPath(new URL(`../${path}`, import.meta.url));
export const read = (path: string) => readFileSync(root(path), "utf8");

/** The Dockerfile's stages: name, base, and the instructions inside. */
function dockerStages(text: string): Map<string, { from: string; lines: string[] }> {
  const stages = new Map<string, { from: string; lines: string[] }>();
  let current: string[] | null = null;
  for (const line of text.replace(/\\\n/g, " ").split("\n").map((l) => l.trim())) {
    const from = /^FROM\s+(\S+)\s+AS\s+(\S+)$/i.exec(line);
    if (from?.[1] && from[2]) {
      current = [];
      stages.set(from[2], { from: from[1], lines: current });
    } else if (current && line && !line.startsWith("#")) current.push(line);
  }
  return stages;
}
export const stages = dockerStages(read("Dockerfile"));

/** Every instruction that applies to a stage, its bases' first. */
export function effectiveLines(stage: string): string[] {
  const found = stages.get(stage);
  if (!found) return [];
  return [...effectiveLines(found.from), ...found.lines];
}

/** The image a stage starts from, through the stages it builds on. */
export function baseImage(stage: string): string {
  const found = stages.get(stage);
  return found ? baseImage(found.from) : stage;
}

/** The deployables, each a Dockerfile target, and what they run. */
export const DEPLOYABLES = ["auth", "organization", "billing", "webhook-dispatcher", "gateway"] as const;
