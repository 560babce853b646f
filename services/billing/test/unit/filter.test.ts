import { describe, expect, it } from "vitest";
import { contribution, matches, type Filter, type FILTER_OPERATORS } from "../../src/meters/filter.js";

const event = { name: "api.call", source: "user", timestamp: new Date("2026-01-01T00:00:10Z"), metadata: { tokens: 12, model: "gpt-4o", cached: true, llm: { vendor: "openai" } } };
const clause = (property: string, operator: (typeof FILTER_OPERATORS)[number], value: string | number | boolean): Filter => ({ conjunction: "and", clauses: [{ property, operator, value }] });

describe("meter filters", () => {
  it("compare a value only with one of its own type, except like, which compares text", () => {
    expect(matches(event, clause("tokens", "gt", 10))).toBe(true);
    expect(matches(event, clause("tokens", "eq", "12"))).toBe(false);
    expect(matches(event, clause("tokens", "like", "1"))).toBe(true);
    expect(matches(event, clause("cached", "eq", true))).toBe(true);
    expect(matches(event, clause("cached", "like", "t"))).toBe(true);
    expect(matches(event, clause("model", "not_like", "claude"))).toBe(true);
    expect(matches(event, clause("missing", "ne", "x"))).toBe(false);
  });

  it("read the event's own properties, metadata by key, by metadata. prefix and by dotted path", () => {
    expect(matches(event, clause("name", "eq", "api.call"))).toBe(true);
    expect(matches(event, clause("timestamp", "gte", 1767225610))).toBe(true);
    expect(matches(event, clause("metadata.model", "eq", "gpt-4o"))).toBe(true);
    expect(matches(event, clause("llm.vendor", "eq", "openai"))).toBe(true);
  });

  it("join clauses by their group's conjunction; an empty group lets everything through", () => {
    expect(matches(event, { conjunction: "or", clauses: [] })).toBe(true);
    expect(matches(event, { conjunction: "or", clauses: [clause("tokens", "lt", 5), clause("model", "like", "gpt")] })).toBe(true);
    expect(matches(event, { conjunction: "and", clauses: [clause("tokens", "lt", 5), clause("model", "like", "gpt")] })).toBe(false);
  });

  it("take from an event what its aggregation reads, or nothing when the property does not suit it", () => {
    expect(contribution(event, { func: "count" })).toEqual({ value: 1, unique: null });
    expect(contribution(event, { func: "sum", property: "tokens" })).toEqual({ value: 12, unique: null });
    expect(contribution(event, { func: "avg", property: "model" })).toBeNull();
    expect(contribution(event, { func: "unique", property: "cached" })).toEqual({ value: 1, unique: "t" });
    expect(contribution(event, { func: "unique", property: "absent" })).toBeNull();
  });
});
