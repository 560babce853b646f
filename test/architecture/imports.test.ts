import { readdirSync } from "node:fs";
import path from "node:path";
import madge from "madge";
import { describe, expect, it } from "vitest";
import { repository } from "./source.js";

describe("imports", () => {
  it("go round in no circle in the services, the gateway, proto and the web app", async () => {
    const services = readdirSync(path.join(repository, "services")).map((service) => `services/${service}/src`);
    const circles = [...(await circlesIn([...services, "gateway/src", "proto/src"], "tsconfig.json")), ...(await circlesIn(["web/src"], "web/tsconfig.json"))];
    expect(circles.length, `import circles:\n${circles.join("\n")}`).toBe(0);
  }, 120_000);
});

/** Each circle among the TypeScript files under `folders`, as `a.ts → b.ts → a.ts`; imports resolve as `tsConfig` has them. */
async function circlesIn(folders: string[], tsConfig: string): Promise<string[]> {
  const graph = await madge(folders, { baseDir: repository, fileExtensions: ["ts", "tsx"], tsConfig: path.join(repository, tsConfig) });
  return graph.circular().map((circle) => [...circle, circle[0]].join(" → "));
}
