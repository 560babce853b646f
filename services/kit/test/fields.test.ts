import { describe, expect, it } from "vitest";
import { dayInput, momentInput, timeZoneName, ValidationError } from "@tollgate/kit";

describe("a moment a request sends", () => {
  const moment = momentInput();

  it("is read as a Date in years 1 to 9999 once in UTC, as Polar reads one", () => {
    expect(moment.parse("2026-03-01T10:00:00+02:00")).toEqual(new Date("2026-03-01T08:00:00Z"));
    expect(moment.parse("0001-01-01T00:00:00Z")).toEqual(new Date("0001-01-01T00:00:00Z"));
    expect(moment.parse("9999-12-31T23:59:59Z")).toEqual(new Date("9999-12-31T23:59:59Z"));
  });

  it("refuses a year 0 or 10000, written or reached by the offset, with Python's words", () => {
    const refusal = (text: string) => {
      const parsed = moment.safeParse(text);
      return parsed.success ? null : ValidationError.fromZod("body", parsed.error, { at: text }).issues.map(({ message, code }) => ({ message, code }));
    };
    expect(refusal("0000-06-01T00:00:00Z")).toEqual([{ message: "Input should be a valid datetime, year 0 is out of range", code: "datetime_parsing" }]);
    expect(refusal("0001-01-01T00:00:00+01:00")).toEqual([{ message: "Input should be a valid datetime, year 0 is out of range", code: "datetime_parsing" }]);
    expect(refusal("9999-12-31T23:00:00-05:00")).toEqual([{ message: "Input should be a valid datetime, year 10000 is out of range", code: "datetime_parsing" }]);
  });
});

describe("a calendar day a request sends", () => {
  it("is in years 1 to 9999", () => {
    expect(dayInput().safeParse("0001-01-01").success).toBe(true);
    expect(dayInput().safeParse("9999-12-31").success).toBe(true);
    expect(dayInput().safeParse("0000-12-31").success).toBe(false);
  });
});

describe("a time zone name", () => {
  const zone = timeZoneName(new Set(["utc", "europe/paris", "no/where"]));

  it("is one Postgres knows (in any case) and the runtime knows too", () => {
    expect(zone.safeParse("Europe/Paris").success).toBe(true);
    expect(zone.safeParse("europe/PARIS").success).toBe(true);
    // Known to the runtime, not to this Postgres; and the other way round.
    expect(zone.safeParse("US/Pacific-New").success).toBe(false);
    expect(zone.safeParse("No/Where").success).toBe(false);
  });
});
