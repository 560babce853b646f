import { describe, expect, it } from "vitest";
import { csvCell, csvLine } from "../src/http/csv.js";

describe("CSV cells", () => {
  it("quote what would break a line and neutralise text a spreadsheet would run as a formula", () => {
    expect(csvLine(["plain", 19.99, true, null, undefined, ""])).toBe("plain,19.99,true,,,\r\n");
    expect(csvCell('say "hi", then go')).toBe('"say ""hi"", then go"');
    expect(csvCell("two\nlines")).toBe('"two\nlines"');
    for (const formula of ["=1+1", "+1", "-1", "@SUM(A1)", "\tx", "\rx"]) expect(csvCell(formula).startsWith("'") || csvCell(formula).startsWith(`"'`), formula).toBe(true);
    expect(csvCell('=HYPERLINK("x")')).toBe(`"'=HYPERLINK(""x"")"`);
    // A number is a number, whatever its sign: only text is a formula.
    expect(csvCell(-5)).toBe("-5");
  });
});
