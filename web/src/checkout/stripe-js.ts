/**
 * The part of Stripe.js (https://js.stripe.com/v3/) the hosted checkout uses, loaded only for a
 * seller whose processor is Stripe. Stripe ships the script itself and no package is needed to
 * load it; these are the calls' shapes as Stripe documents them.
 */
export interface StripeError {
  type: string;
  code?: string;
  decline_code?: string;
  message?: string;
}

export interface StripeElement {
  mount(target: HTMLElement): void;
  destroy(): void;
}

export interface StripeElements {
  create(type: "payment", options?: { layout?: "tabs" | "accordion" }): StripeElement;
  /** Checks the Element's fields and collects what the payment method needs; first, before any token. */
  submit(): Promise<{ error?: StripeError }>;
}

export interface StripeClient {
  elements(options: { mode: "payment" | "setup"; amount?: number; currency: string; setupFutureUsage?: "off_session"; locale?: string }): StripeElements;
  createConfirmationToken(options: { elements: StripeElements }): Promise<{ confirmationToken?: { id: string }; error?: StripeError }>;
  /** Takes the customer through what their bank asks (3-D Secure) for an intent that requires action. */
  handleNextAction(options: { clientSecret: string }): Promise<{ error?: StripeError }>;
}

type StripeConstructor = (publishableKey: string, options?: { locale?: string }) => StripeClient;

declare global {
  interface Window {
    Stripe?: StripeConstructor;
  }
}

export const STRIPE_JS_URL = "https://js.stripe.com/v3/";

let loading: Promise<StripeConstructor> | null = null;

/** Stripe.js, its script added to the page once; a failed load may be tried again. */
export function loadStripe(): Promise<StripeConstructor> {
  loading ??= new Promise<StripeConstructor>((resolve, reject) => {
    if (window.Stripe) return resolve(window.Stripe);
    const script = document.createElement("script");
    script.src = STRIPE_JS_URL;
    script.async = true;
    script.onload = () => (window.Stripe ? resolve(window.Stripe) : reject(new Error("Stripe.js loaded without Stripe")));
    script.onerror = () => {
      loading = null;
      script.remove();
      reject(new Error("Stripe.js could not be loaded"));
    };
    document.head.append(script);
  });
  return loading;
}
