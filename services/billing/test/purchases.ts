import { afterAll, beforeAll } from "vitest";
import { publishedEvents } from "@tollgate/kit/testing";
import { Polar } from "@polar-sh/sdk";
import { startBillingStack, type BillingStack, type Seller } from "./stack.js";

const nextYear = new Date().getUTCFullYear() + 1;

/** What the hosted checkout page does with the card form before confirming: a sandbox confirmation token. */
export async function cardToken(stack: BillingStack, cardNumber: string): Promise<string> {
  const response = await fetch(`${stack.gateway.url}/v1/sandbox/confirmation-tokens`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ card_number: cardNumber, exp_month: 12, exp_year: nextYear, cvc: "123" }),
  });
  if (response.status !== 201) throw new Error(`tokenizing answered ${response.status}: ${await response.text()}`);
  return ((await response.json()) as { id: string }).id;
}

/** The types of billing events about `id` (a checkout, order or subscription), in the order they were published. */
export async function eventTypesAbout(stack: BillingStack, id: string): Promise<string[]> {
  const events = await publishedEvents(stack.billing.context.bus);
  return events.filter((event) => (event.data as { payload?: { id?: string } }).payload?.id === id).map((event) => event.type.replace(/^billing\./, ""));
}

export interface Shop {
  stack: BillingStack;
  shop: Seller;
  /** The SDK as the hosted checkout page uses it: no token, the client secret is the credential. */
  customerSide: Polar;
}

/** A billing stack (or one with more services, from `start`) with one seller for the tests of a file: started before them, stopped after. */
export function useShop<Stack extends BillingStack = BillingStack>(receive: (opened: Shop & { stack: Stack }) => void, start: () => Promise<Stack> = startBillingStack as () => Promise<Stack>): void {
  let opened: (Shop & { stack: Stack }) | undefined;
  beforeAll(async () => {
    const stack = await start();
    opened = { stack, shop: await stack.seller(), customerSide: new Polar({ serverURL: stack.gateway.url }) };
    receive(opened);
  });
  afterAll(async () => {
    await opened?.stack.stop();
  });
}
