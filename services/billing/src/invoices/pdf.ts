import { createRequire } from "node:module";
import PDFDocument from "pdfkit";
import type { PrintedDocument } from "./document.js";

/**
 * DejaVu Sans, shipped with the dejavu-fonts-ttf package: one face with the Latin, Cyrillic and
 * Turkish letters all eight of the product's languages are written in (pdfkit's built-in Helvetica
 * has no Cyrillic), embedded in each PDF so it prints the same everywhere.
 */
const require = createRequire(import.meta.url);
const FONTS = { regular: require.resolve("dejavu-fonts-ttf/ttf/DejaVuSans.ttf"), bold: require.resolve("dejavu-fonts-ttf/ttf/DejaVuSans-Bold.ttf") };

const MARGIN = 56;
const GREY = "#57606a";

/** Renders an invoice or receipt to a PDF on an A4 page (more pages when its lines need them). */
export function renderPdf(printed: PrintedDocument): Promise<Buffer> {
  const pdf = new PDFDocument({ size: "A4", margin: MARGIN, info: { Title: `${printed.title} ${printed.facts[0]?.[1] ?? ""}`.trim() }, lang: printed.locale });
  pdf.registerFont("regular", FONTS.regular);
  pdf.registerFont("bold", FONTS.bold);
  const chunks: Buffer[] = [];
  pdf.on("data", (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve, reject) => {
    pdf.on("end", () => resolve(Buffer.concat(chunks)));
    pdf.on("error", reject);
  });

  const width = pdf.page.width - 2 * MARGIN;
  pdf.font("bold").fontSize(22).text(printed.title);
  pdf.moveDown(0.5);
  pdf.font("regular").fontSize(10);
  for (const [label, value] of printed.facts) pdf.fillColor(GREY).text(`${label}: `, { continued: true }).fillColor("black").text(value);
  pdf.moveDown(1.5);

  // The seller on the left, the buyer on the right.
  const top = pdf.y;
  const column = width / 2 - 10;
  const party = (x: number, heading: string, lines: string[]) => {
    pdf.font("bold").fontSize(10).fillColor(GREY).text(heading, x, top, { width: column });
    pdf.font("regular").fillColor("black");
    for (const line of lines) pdf.text(line, x, undefined, { width: column });
    return pdf.y;
  };
  const bottom = Math.max(party(MARGIN, printed.labels.from, printed.seller), party(MARGIN + width / 2 + 10, printed.labels.billedTo, printed.buyer));
  pdf.y = bottom + 30;

  // The lines: description, then tax and amount in right-aligned columns.
  const amountWidth = 100;
  const descriptionWidth = width - 2 * amountWidth;
  const row = (cells: [string, string, string], font: "regular" | "bold") => {
    const y = pdf.y;
    pdf.font(font).fontSize(10).fillColor("black");
    pdf.text(cells[0], MARGIN, y, { width: descriptionWidth - 10 });
    const after = pdf.y;
    pdf.text(cells[1], MARGIN + descriptionWidth, y, { width: amountWidth, align: "right" });
    pdf.text(cells[2], MARGIN + descriptionWidth + amountWidth, y, { width: amountWidth, align: "right" });
    pdf.y = Math.max(after, pdf.y) + 6;
  };
  const rule = () => {
    pdf.moveTo(MARGIN, pdf.y).lineTo(MARGIN + width, pdf.y).strokeColor("#d0d7de").stroke();
    pdf.y += 6;
  };
  row([printed.labels.description, printed.labels.tax, printed.labels.amount], "bold");
  rule();
  for (const line of printed.lines) row([line.description, line.tax, line.amount], "regular");
  rule();
  // Totals: the label right-aligned across the description and tax columns, so a long one fits on its line.
  for (const [label, value] of printed.totals) {
    const y = pdf.y;
    pdf.font(label === printed.labels.total ? "bold" : "regular").fontSize(10).fillColor("black");
    pdf.text(label, MARGIN, y, { width: descriptionWidth + amountWidth, align: "right" });
    pdf.text(value, MARGIN + descriptionWidth + amountWidth, y, { width: amountWidth, align: "right" });
    pdf.y += 6;
  }
  for (const note of printed.notes) {
    pdf.y += 12;
    pdf.font("regular").fontSize(9).fillColor("#444").text(note, MARGIN, pdf.y, { width });
  }

  pdf.end();
  return done;
}
