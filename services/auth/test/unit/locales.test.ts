import { describe, expect, it } from "vitest";
import { acceptedLocale } from "../../src/i18n/locales.js";

describe("the language an Accept-Language header asks for", () => {
  it("is the best-rated of the product's languages, by its language part", () => {
    expect(acceptedLocale("de-AT,de;q=0.9")).toBe("de");
    expect(acceptedLocale("nl-NL, uk;q=0.8, ru;q=0.9")).toBe("ru");
    expect(acceptedLocale("fr;q=0.5, tr")).toBe("tr");
    expect(acceptedLocale("pt-BR, es-419;q=0.7")).toBe("es");
  });

  it("is English when the request names none of them, or refuses them", () => {
    expect(acceptedLocale(undefined)).toBe("en");
    expect(acceptedLocale("*")).toBe("en");
    expect(acceptedLocale("ja, zh-CN;q=0.8")).toBe("en");
    expect(acceptedLocale("de;q=0, ja")).toBe("en");
  });
});
