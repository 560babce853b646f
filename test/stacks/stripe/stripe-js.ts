import type { Page } from "playwright-core";
import type { LocalStripe } from "./local-stripe.js";

/**
 * A stand-in for Stripe.js, served to the browser at https://js.stripe.com/v3/ (routed by the test)
 * so that the hosted checkout's own code runs as it would against Stripe: the calls it makes, in the
 * order it makes them. Stripe's Payment Element lives in Stripe's iframe; this one draws its three
 * fields into the page itself, which is all a test needs of it. Its calls reach the local Stripe at
 * https://api.stripe.com (routed too), with the publishable key, as Stripe.js's do.
 */
const STRIPE_JS = String.raw`
(() => {
  const api = "https://api.stripe.com";
  const form = (fields) => Object.entries(fields).map(([key, value]) => encodeURIComponent(key) + "=" + encodeURIComponent(value)).join("&");
  window.Stripe = (key) => {
    const post = async (path, fields) => {
      const answer = await fetch(api + path, { method: "POST", headers: { authorization: "Bearer " + key, "content-type": "application/x-www-form-urlencoded" }, body: form(fields) });
      const body = await answer.json();
      return answer.ok ? { ok: body } : { error: body.error };
    };
    let inputs = null;
    const elements = {
      create() {
        return {
          mount(target) {
            target.innerHTML = '<label>Card number <input name="number" autocomplete="cc-number"></label>' +
              '<label>Expiration date <input name="expiry" placeholder="MM / YY"></label><label>Security code <input name="cvc"></label>';
            inputs = target;
          },
          destroy() { if (inputs) inputs.innerHTML = ""; },
        };
      },
      async submit() {
        const number = inputs.querySelector("[name=number]").value.replace(/\s/g, "");
        return number.length < 12 ? { error: { type: "validation_error", code: "incomplete_number", message: "Your card number is incomplete." } } : {};
      },
    };
    return {
      elements: () => elements,
      async createConfirmationToken() {
        const value = (name) => inputs.querySelector("[name=" + name + "]").value;
        const [month, year] = value("expiry").split("/").map((part) => part.trim());
        const made = await post("/v1/confirmation_tokens", {
          "payment_method_data[type]": "card",
          "payment_method_data[card][number]": value("number").replace(/\s/g, ""),
          "payment_method_data[card][exp_month]": month,
          "payment_method_data[card][exp_year]": "20" + year,
          "payment_method_data[card][cvc]": value("cvc"),
        });
        return made.ok ? { confirmationToken: made.ok } : { error: made.error };
      },
      handleNextAction({ clientSecret }) {
        const intent = clientSecret.split("_secret_")[0];
        return new Promise((resolve) => {
          const dialog = document.createElement("dialog");
          dialog.setAttribute("aria-label", "3D Secure 2 Test Page");
          dialog.innerHTML = '<p>Your bank asks you to confirm this payment.</p><button value="approve">Complete</button> <button value="fail">Fail</button>';
          dialog.addEventListener("click", async (event) => {
            const outcome = event.target.value;
            if (!outcome) return;
            dialog.close();
            dialog.remove();
            const answered = await post("/_local/authenticate/" + intent, { outcome });
            resolve(outcome === "approve" ? { paymentIntent: answered.ok } : { error: { type: "card_error", code: "payment_intent_authentication_failure", message: "We are unable to authenticate your payment method." } });
          });
          document.body.append(dialog);
          dialog.showModal();
        });
      },
    };
  };
})();
`;

/** Serves the stand-in at Stripe.js's address, and sends Stripe.js's API calls to the local Stripe, for everything `page` loads. */
export async function routeStripeJs(page: Page, local: LocalStripe): Promise<void> {
  await page.route("https://js.stripe.com/v3/**", (route) => route.fulfill({ status: 200, contentType: "application/javascript", body: STRIPE_JS }));
  await page.route("https://api.stripe.com/**", async (route) => {
    const request = route.request();
    const path = new URL(request.url()).pathname;
    const answer = await fetch(`${local.url}${path}`, { method: request.method(), headers: { authorization: (await request.headerValue("authorization")) ?? "", "content-type": "application/x-www-form-urlencoded" }, body: request.postData() ?? undefined });
    await route.fulfill({ status: answer.status, contentType: "application/json", headers: { "access-control-allow-origin": "*" }, body: await answer.text() });
  });
}
