import { defineMessages, type MessageDescriptor } from "react-intl";

const workers = defineMessages({
  webhook_delivery: { id: "seller.setAside.worker.webhookDelivery", defaultMessage: "Sending a webhook event" },
  usage_measurement: { id: "seller.setAside.worker.usageMeasurement", defaultMessage: "Measuring a usage event" },
  subscription_renewal: { id: "seller.setAside.worker.subscriptionRenewal", defaultMessage: "Renewing a subscription" },
  checkout_payment: { id: "seller.setAside.worker.checkoutPayment", defaultMessage: "Taking a checkout's payment" },
  checkout_expiry: { id: "seller.setAside.worker.checkoutExpiry", defaultMessage: "Expiring a checkout" },
  customer_state: { id: "seller.setAside.worker.customerState", defaultMessage: "Announcing a customer's state" },
  other: { id: "seller.setAside.worker.other", defaultMessage: "Background work" },
});

/** What the work was doing, as a seller says it; a worker this app does not know yet reads as background work. */
export const workerLabel = (worker: string): MessageDescriptor => (Object.hasOwn(workers, worker) ? workers[worker as keyof typeof workers] : workers.other);
