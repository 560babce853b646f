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
  /** The statement an EU business's invoice carries when it accounts for the VAT itself. */
  reverseCharge: string;
  /** Beside the seller's tax number. */
  vatNumber: string;
}

const LABELS = {
  en: { invoice: "Invoice", receipt: "Receipt", number: "Number", issued: "Issued", paid: "Paid", from: "From", billedTo: "Billed to", taxId: "Tax ID", description: "Description", tax: "Tax", amount: "Amount", subtotal: "Subtotal", discount: "Discount", total: "Total", refunded: "Refunded", creditNote: "Credit note", credits: "Credits invoice", refundOf: "Refund of order" , reverseCharge: "Reverse charge: VAT to be accounted for by the recipient (Article 196 of Directive 2006/112/EC).", vatNumber: "VAT number" },
  de: { invoice: "Rechnung", receipt: "Quittung", number: "Nummer", issued: "Ausgestellt", paid: "Bezahlt", from: "Von", billedTo: "Rechnung an", taxId: "Steuernummer", description: "Beschreibung", tax: "Steuer", amount: "Betrag", subtotal: "Zwischensumme", discount: "Rabatt", total: "Gesamt", refunded: "Erstattet", creditNote: "Gutschrift", credits: "Korrigiert Rechnung", refundOf: "Erstattung zur Bestellung" , reverseCharge: "Steuerschuldnerschaft des Leistungsempfängers (Reverse Charge, Art. 196 Richtlinie 2006/112/EG).", vatNumber: "USt-IdNr." },
  fr: { invoice: "Facture", receipt: "Reçu", number: "Numéro", issued: "Émise le", paid: "Payé le", from: "De", billedTo: "Facturé à", taxId: "N° de TVA", description: "Description", tax: "Taxe", amount: "Montant", subtotal: "Sous-total", discount: "Remise", total: "Total", refunded: "Remboursé", creditNote: "Avoir", credits: "Rectifie la facture", refundOf: "Remboursement de la commande" , reverseCharge: "Autoliquidation : TVA due par le preneur (article 196 de la directive 2006/112/CE).", vatNumber: "N° de TVA intracommunautaire" },
  es: { invoice: "Factura", receipt: "Recibo", number: "Número", issued: "Emitida", paid: "Pagado", from: "De", billedTo: "Facturado a", taxId: "NIF", description: "Descripción", tax: "Impuestos", amount: "Importe", subtotal: "Subtotal", discount: "Descuento", total: "Total", refunded: "Reembolsado", creditNote: "Nota de crédito", credits: "Rectifica la factura", refundOf: "Reembolso del pedido" , reverseCharge: "Inversión del sujeto pasivo: IVA a cargo del destinatario (artículo 196 de la Directiva 2006/112/CE).", vatNumber: "NIF-IVA" },
  ru: { invoice: "Счёт", receipt: "Чек", number: "Номер", issued: "Выставлен", paid: "Оплачен", from: "От", billedTo: "Плательщик", taxId: "ИНН", description: "Описание", tax: "Налог", amount: "Сумма", subtotal: "Промежуточный итог", discount: "Скидка", total: "Итого", refunded: "Возвращено", creditNote: "Кредит-нота", credits: "Корректирует счёт", refundOf: "Возврат по заказу" , reverseCharge: "Обратное начисление: НДС уплачивает получатель (статья 196 Директивы 2006/112/ЕС).", vatNumber: "Номер плательщика НДС" },
  uk: { invoice: "Рахунок", receipt: "Квитанція", number: "Номер", issued: "Виставлено", paid: "Оплачено", from: "Від", billedTo: "Платник", taxId: "Податковий номер", description: "Опис", tax: "Податок", amount: "Сума", subtotal: "Проміжний підсумок", discount: "Знижка", total: "Разом", refunded: "Повернено", creditNote: "Кредит-нота", credits: "Коригує рахунок", refundOf: "Повернення за замовленням" , reverseCharge: "Зворотне нарахування: ПДВ сплачує отримувач (стаття 196 Директиви 2006/112/ЄС).", vatNumber: "Номер платника ПДВ" },
  pl: { invoice: "Faktura", receipt: "Potwierdzenie zapłaty", number: "Numer", issued: "Wystawiono", paid: "Zapłacono", from: "Od", billedTo: "Nabywca", taxId: "NIP", description: "Opis", tax: "Podatek", amount: "Kwota", subtotal: "Suma częściowa", discount: "Rabat", total: "Razem", refunded: "Zwrócono", creditNote: "Faktura korygująca", credits: "Koryguje fakturę", refundOf: "Zwrot za zamówienie" , reverseCharge: "Odwrotne obciążenie: VAT rozlicza nabywca (art. 196 dyrektywy 2006/112/WE).", vatNumber: "NIP UE" },
  tr: { invoice: "Fatura", receipt: "Makbuz", number: "Numara", issued: "Düzenlenme", paid: "Ödendi", from: "Gönderen", billedTo: "Fatura edilen", taxId: "Vergi numarası", description: "Açıklama", tax: "Vergi", amount: "Tutar", subtotal: "Ara toplam", discount: "İndirim", total: "Toplam", refunded: "İade edildi", creditNote: "İade faturası", credits: "Düzelttiği fatura", refundOf: "Sipariş iadesi" , reverseCharge: "Ters ibraz: KDV alıcı tarafından beyan edilir (2006/112/AT sayılı Direktif, madde 196).", vatNumber: "KDV numarası" },
} as const satisfies Record<string, DocumentLabels>;

export type DocumentLocale = keyof typeof LABELS;

/** The product's language for a customer's locale tag ("de-AT" is German), else English. */
export function documentLocale(tag: string | null): DocumentLocale {
  const language = (tag ?? "").toLowerCase().split(/[-_]/)[0] ?? "";
  return Object.hasOwn(LABELS, language) ? (language as DocumentLocale) : "en";
}

export const labelsFor = (locale: DocumentLocale): DocumentLabels => LABELS[locale];
