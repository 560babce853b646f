import { readFile } from "node:fs/promises";
import { expect, it } from "vitest";
import { wireTypes, wireTypesFile } from "../wire-types";

it("v1-wire.ts is what v1-openapi.json generates (else run `npm run wire-types`)", async () => {
  expect(await readFile(wireTypesFile, "utf8")).toBe(await wireTypes());
});
