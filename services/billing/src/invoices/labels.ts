/** The words an invoice or receipt is printed with, in each of the product's languages. */
export interface DocumentLabels {
  invoice: string;
  receipt: string;
  number: string;
  issued: string;
  paid: string;
  from: string;
  billedTo: string;
  taxId: string;
  description: string;
  tax: string;
  amount: string;
  subtotal: string;
  discount: string;
  total: string;
  refunded: string;
  creditNote: string;
  /** Beside the invoice number a credit note corrects. */
  credits: string;
  /** A credit note's line: a refund of the order whose invoice number follows. */
  refundOf: string;
}

const LABELS = {
  en: { invoice: "Invoice", receipt: "Receipt", number: "Number", issued: "Issued", paid: "Paid", from: "From", billedTo: "Billed to", taxId: "Tax ID", description: "Description", tax: "Tax", amount: "Amount", subtotal: "Subtotal", discount: "Discount", total: "Total", refunded: "Refunded", creditNote: "Credit note", credits: "Credits invoice", refundOf: "Refund of order" },
  de: { invoice: "Rechnung", receipt: "Quittung", number: "Nummer", issued: "Ausgestellt", paid: "Bezahlt", from: "Von", billedTo: "Rechnung an", taxId: "Steuernummer", description: "Beschreibung", tax: "Steuer", amount: "Betrag", subtotal: "Zwischensumme", discount: "Rabatt", total: "Gesamt", refunded: "Erstattet", creditNote: "Gutschrift", credits: "Korrigiert Rechnung", refundOf: "Erstattung zur Bestellung" },
  fr: { invoice: "Facture", receipt: "Reçu", number: "Numéro", issued: "Émise le", paid: "Payé le", from: "De", billedTo: "Facturé à", taxId: "N° de TVA", description: "Description", tax: "Taxe", amount: "Montant", subtotal: "Sous-total", discount: "Remise", total: "Total", refunded: "Remboursé", creditNote: "Avoir", credits: "Rectifie la facture", refundOf: "Remboursement de la commande" },
  es: { invoice: "Factura", receipt: "Recibo", number: "Número", issued: "Emitida", paid: "Pagado", from: "De", billedTo: "Facturado a", taxId: "NIF", description: "Descripción", tax: "Impuestos", amount: "Importe", subtotal: "Subtotal", discount: "Descuento", total: "Total", refunded: "Reembolsado", creditNote: "Nota de crédito", credits: "Rectifica la factura", refundOf: "Reembolso del pedido" },
  ru: { invoice: "Счёт", receipt: "Чек", number: "Номер", issued: "Выставлен", paid: "Оплачен", from: "От", billedTo: "Плательщик", taxId: "ИНН", description: "Описание", tax: "Налог", amount: "Сумма", subtotal: "Промежуточный итог", discount: "Скидка", total: "Итого", refunded: "Возвращено", creditNote: "Кредит-нота", credits: "Корректирует счёт", refundOf: "Возврат по заказу" },
  uk: { invoice: "Рахунок", receipt: "Квитанція", number: "Номер", issued: "Виставлено", paid: "Оплачено", from: "Від", billedTo: "Платник", taxId: "Податковий номер", description: "Опис", tax: "Податок", amount: "Сума", subtotal: "Проміжний підсумок", discount: "Знижка", total: "Разом", refunded: "Повернено", creditNote: "Кредит-нота", credits: "Коригує рахунок", refundOf: "Повернення за замовленням" },
  pl: { invoice: "Faktura", receipt: "Potwierdzenie zapłaty", number: "Numer", issued: "Wystawiono", paid: "Zapłacono", from: "Od", billedTo: "Nabywca", taxId: "NIP", description: "Opis", tax: "Podatek", amount: "Kwota", subtotal: "Suma częściowa", discount: "Rabat", total: "Razem", refunded: "Zwrócono", creditNote: "Faktura korygująca", credits: "Koryguje fakturę", refundOf: "Zwrot za zamówienie" },
  tr: { invoice: "Fatura", receipt: "Makbuz", number: "Numara", issued: "Düzenlenme", paid: "Ödendi", from: "Gönderen", billedTo: "Fatura edilen", taxId: "Vergi numarası", description: "Açıklama", tax: "Vergi", amount: "Tutar", subtotal: "Ara toplam", discount: "İndirim", total: "Toplam", refunded: "İade edildi", creditNote: "İade faturası", credits: "Düzelttiği fatura", refundOf: "Sipariş iadesi" },
} as const satisfies Record<string, DocumentLabels>;

export type DocumentLocale = keyof typeof LABELS;

/** The product's language for a customer's locale tag ("de-AT" is German), else English. */
export function documentLocale(tag: string | null): DocumentLocale {
  const language = (tag ?? "").toLowerCase().split(/[-_]/)[0] ?? "";
  return Object.hasOwn(LABELS, language) ? (language as DocumentLocale) : "en";
}

export const labelsFor = (locale: DocumentLocale): DocumentLabels => LABELS[locale];
