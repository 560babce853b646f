import { describe, expect, it } from "vitest";
import { checkoutFormFor, customFieldData, type CheckoutQuestion } from "../src/checkout/form";
import { signUpForm } from "../src/auth/account-forms";
import { signInProblems } from "../src/auth/form";
import { changePasswordForm } from "../src/account/form";
import { banExpiresIn, banForm } from "../src/admin/form";
import { parseMetadata } from "../src/forms/metadata";
import { inviteForm, organizationForm } from "../src/organizations/form";
import { slugify } from "../src/forms/slugify";
import { mayManageMember, permission } from "../src/organizations/permissions";
import { memberForm, seatBounds, seatCountForm } from "../src/forms/team";

/** The messages a form would show, by field. */
function problems(result: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } }): Record<string, string> {
  return Object.fromEntries((result.error?.issues ?? []).map((issue) => [issue.path.join("."), issue.message]));
}

describe("form rules", () => {
  it("asks the checkout for a card only when it needs one, and a state and postal code where tax needs them", () => {
    const checkoutForm = checkoutFormFor([]);
    const buyer = { email: "ada@example.com", name: "", country: "us", state: "", postalCode: "", business: false, billingName: "", line1: "", city: "", taxId: "", answers: {}, cardNumber: "", expiry: "", cvc: "" };
    expect(problems(checkoutForm.safeParse({ ...buyer, needsCard: false }))).toEqual({});
    expect(problems(checkoutForm.safeParse({ ...buyer, needsCard: true }))).toEqual({
      cardNumber: "Enter the card number's 12 to 19 digits",
      expiry: "Enter the expiry as MM/YY",
      cvc: "Enter the 3 or 4 digits on the back",
      state: "Enter the state or province",
      postalCode: "Enter the postal code",
    });
    const paid = checkoutForm.safeParse({ ...buyer, needsCard: true, country: "gb", cardNumber: "4242 4242 4242 4242", expiry: "12/30", cvc: "123" });
    expect(paid.success && paid.data).toMatchObject({ country: "GB", cardNumber: "4242424242424242" });
    // A business is invoiced: its name and address in full; its tax ID may wait.
    expect(problems(checkoutForm.safeParse({ ...buyer, needsCard: false, country: "de", business: true }))).toEqual({
      billingName: "Enter the company's name",
      line1: "Enter the street address",
      city: "Enter the city",
      postalCode: "Enter the postal code",
    });
  });

  it("checks the answers to a seller's questions on the checkout, and sends them as Polar's custom_field_data", () => {
    const field = (slug: string) => ({ id: slug, created_at: "2026-01-01T00:00:00Z", modified_at: null, metadata: {}, organization_id: "seller", slug, name: slug });
    const question = (required: boolean, custom_field: CheckoutQuestion["custom_field"]): CheckoutQuestion => ({ custom_field_id: custom_field.id, order: 0, required, custom_field });
    const questions = [
      question(true, { ...field("company"), type: "text", properties: { max_length: 5 } }),
      question(false, { ...field("seats"), type: "number", properties: { ge: 1, le: 10 } }),
      question(true, { ...field("terms"), type: "checkbox", properties: {} }),
      question(false, { ...field("size"), type: "select", properties: { options: [] } }),
    ];
    const form = checkoutFormFor(questions);
    const buyer = { needsCard: false, email: "ada@example.com", name: "", country: "gb", state: "", postalCode: "", business: false, billingName: "", line1: "", city: "", taxId: "", cardNumber: "", expiry: "", cvc: "" };
    expect(problems(form.safeParse({ ...buyer, answers: {} }))).toEqual({ "answers.company": "Answer this question", "answers.terms": "Tick this box to go on" });
    expect(problems(form.safeParse({ ...buyer, answers: { company: "Acme Ltd", seats: "2.5", terms: true } }))).toEqual({ "answers.company": "Use at most 5 characters", "answers.seats": "Enter a whole number" });
    expect(problems(form.safeParse({ ...buyer, answers: { company: "Acme", seats: "11", terms: true } }))).toEqual({ "answers.seats": "Enter 10 or less" });
    expect(form.safeParse({ ...buyer, answers: { company: " Acme ", seats: "3", terms: true } }).success).toBe(true);
    expect(customFieldData(questions, { company: " Acme ", seats: "3", terms: true, size: "" })).toEqual({ company: "Acme", seats: 3, terms: true, size: null });
  });

  it("checks a sign-up field by field, with the server's limits", () => {
    expect(problems(signUpForm.safeParse({ name: " ", email: "ada", username: "ab", password: "short", confirm: "other" }))).toEqual({
      name: "Enter your name",
      email: "Enter an e-mail address such as ada@example.com",
      username: "Use at least 3 characters",
      password: "Use at least 8 characters",
      confirm: "The passwords do not match",
    });
    expect(problems(signUpForm.safeParse({ name: "Ada", email: "ada@example.com", username: "ada!", password: "long enough", confirm: "long enough" }))).toEqual({ username: "Use only letters, digits, _ and ." });
    expect(problems(signUpForm.safeParse({ name: "Ada", email: "ada@example.com", username: "", password: "x".repeat(129), confirm: "x".repeat(129) }))).toEqual({ password: "Use at most 128 characters" });
    expect(problems(signUpForm.safeParse({ name: "Ada", email: "ada@example.com", username: "ada.l", password: "long enough", confirm: "long enougH" }))).toEqual({ confirm: "The passwords do not match" });
    expect(signUpForm.safeParse({ name: "Ada", email: "ada@example.com", username: "", password: "long enough", confirm: "long enough" }).success).toBe(true);
  });

  it("signs in with an e-mail address or a username, checked as the sign-up form checks them", () => {
    expect(signInProblems({ identifier: " ada@example.com ", password: "x", rememberMe: true })).toEqual({});
    expect(signInProblems({ identifier: "ada_lovelace", password: "x", rememberMe: false })).toEqual({});
    expect(signInProblems({ identifier: "ada@", password: "", rememberMe: true })).toEqual({ identifier: "Enter an e-mail address or a username", password: "Enter your password" });
    expect(signInProblems({ identifier: "  ", password: "x", rememberMe: true })).toEqual({ identifier: "Enter your e-mail address or username" });
    // What the sign-up form refuses, sign-in refuses too: the rules are the same constants.
    for (const identifier of ["ab", "ada lovelace", "x".repeat(31), "ada@example", ".ada@example.com"]) {
      const asSignUp = identifier.includes("@") ? { email: identifier, username: "" } : { email: "ada@example.com", username: identifier };
      expect(signUpForm.safeParse({ name: "Ada", password: "long enough", confirm: "long enough", ...asSignUp }).success, identifier).toBe(false);
      expect(signInProblems({ identifier, password: "x", rememberMe: true }).identifier, identifier).toBe("Enter an e-mail address or a username");
    }
  });

  it("suggests an organization address from its name, and checks one typed by hand", () => {
    expect(slugify("Acme Rockets, Inc.")).toBe("acme-rockets-inc");
    expect(slugify("  Café Ünïcode  ")).toBe("cafe-unicode");
    expect(slugify("x".repeat(60))).toHaveLength(48);
    expect(problems(organizationForm.safeParse({ name: "Acme", slug: "Acme--Rockets", logo: "ftp://x", metadata: "[1]" }))).toEqual({
      slug: "Use lower-case letters, digits and single hyphens",
      logo: "Enter a web address starting with https://",
      metadata: 'Enter a JSON object such as {"plan": "pro"}, or nothing',
    });
    expect(organizationForm.safeParse({ name: "Acme", slug: "acme-rockets", logo: "", metadata: ' {"plan":"pro"} ' }).success).toBe(true);
    expect(parseMetadata(' {"plan":"pro"} ')).toEqual({ plan: "pro" });
    expect(parseMetadata("   ")).toBeUndefined();
  });

  it("takes invitations, password changes and bans as the server does", () => {
    expect(problems(inviteForm.safeParse({ email: "grace", role: "root", teamId: "" }))).toMatchObject({ email: "Enter an e-mail address such as ada@example.com" });
    expect(problems(changePasswordForm.safeParse({ currentPassword: "", password: "new password", confirm: "new password", revokeOtherSessions: true }))).toEqual({
      currentPassword: "Enter your current password",
    });
    expect(problems(banForm.safeParse({ reason: "spam", days: "0" }))).toEqual({ days: "Enter at least 1 day" });
    expect(problems(banForm.safeParse({ reason: "spam", days: "two" }))).toEqual({ days: "Enter a whole number of days" });
    expect(banExpiresIn("2")).toBe(172_800);
    expect(banExpiresIn("")).toBeUndefined();
  });

  it("knows what each organization role may do, and says why not", () => {
    expect(permission("owner", "delete")).toEqual({ allowed: true });
    expect(permission("admin", "delete")).toEqual({ allowed: false, reason: "Only owners can delete the organization." });
    expect(permission("member", "invite")).toEqual({ allowed: false, reason: "Only owners and admins can invite people." });
    expect(permission("member,admin", "invite")).toEqual({ allowed: true });
    expect(permission(undefined, "update").allowed).toBe(false);
    // Names every object answers to are no roles: they allow nothing and break nothing.
    expect(permission("constructor", "update").allowed).toBe(false);
    expect(permission("toString,__proto__", "invite").allowed).toBe(false);
    expect(mayManageMember("admin", "owner")).toEqual({ allowed: false, reason: "Only owners can change or remove an owner." });
    expect(mayManageMember("owner", "owner")).toEqual({ allowed: true });
    expect(mayManageMember("admin", "member")).toEqual({ allowed: true });
  });

  it("adds a team's member with an e-mail and a role other than owner, and keeps a seat count within its price's tiers", () => {
    expect(problems(memberForm.safeParse({ email: "not an e-mail", name: "", role: "member" }))).toEqual({ email: "Enter an e-mail address such as ada@example.com" });
    expect(memberForm.safeParse({ email: "dev@example.com", name: "", role: "owner" }).success).toBe(false);
    expect(memberForm.safeParse({ email: " dev@example.com ", name: "Dev", role: "billing_manager" }).data).toEqual({ email: "dev@example.com", name: "Dev", role: "billing_manager" });
    const tiers = [
      { min_seats: 2, max_seats: 5, price_per_seat: 1_000 },
      { min_seats: 6, max_seats: 20, price_per_seat: 800 },
    ];
    const seatPrice = { amount_type: "seat_based", seat_tiers: { seat_tier_type: "volume", tiers } } as unknown as Parameters<typeof seatBounds>[0][number];
    expect(seatBounds([seatPrice])).toEqual({ min: 2, max: 20 });
    expect(seatBounds([{ ...seatPrice, seat_tiers: { tiers: [{ min_seats: 1, max_seats: null, price_per_seat: 500 }] } } as typeof seatPrice])).toEqual({ min: 1, max: null });
    const form = seatCountForm({ min: 2, max: 20 });
    expect(problems(form.safeParse({ seats: "21" }))).toEqual({ seats: "Enter a whole number from 2 to 20" });
    expect(problems(form.safeParse({ seats: "1.5" }))).toEqual({ seats: "Enter a whole number from 2 to 20" });
    expect(form.safeParse({ seats: "20" }).success).toBe(true);
  });
});
