import { describe, expect, it } from "vitest";
import { requestLocale } from "../../src/i18n/locales.js";

const asking = (acceptLanguage?: string) => requestLocale({ get: (name: string) => (name.toLowerCase() === "accept-language" ? acceptLanguage : undefined) } as never);

describe("the language a request asks for", () => {
  it("is the best-rated of the product's languages, by its language part", () => {
    expect(asking("de-AT,de;q=0.9")).toBe("de");
    expect(asking("nl-NL, uk;q=0.8, ru;q=0.9")).toBe("ru");
    expect(asking("fr;q=0.5, tr")).toBe("tr");
    expect(asking("pt-BR, es-419;q=0.7")).toBe("es");
  });

  it("is English when the request names none of them, or refuses them", () => {
    expect(asking(undefined)).toBe("en");
    expect(asking("*")).toBe("en");
    expect(asking("ja, zh-CN;q=0.8")).toBe("en");
    expect(asking("de;q=0, ja")).toBe("en");
  });
});
