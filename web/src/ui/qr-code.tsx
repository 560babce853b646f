import { encode } from "uqr";

/**
 * A QR code of `text`, drawn as one SVG path. uqr is small, has no dependencies and only encodes
 * (we draw), and is imported only by the screens that show a code, so it loads in their chunks only.
 */
export function QrCode({ text, label, size = 160 }: { text: string; label: string; size?: number }) {
  const { data, size: modules } = encode(text, { ecc: "M", border: 2 });
  const path = data.flatMap((row, y) => row.flatMap((dark, x) => (dark ? [`M${x} ${y}h1v1h-1z`] : []))).join("");
  return (
    <svg className="qr-code" role="img" aria-label={label} width={size} height={size} viewBox={`0 0 ${modules} ${modules}`} shapeRendering="crispEdges">
      <rect width={modules} height={modules} fill="#fff" />
      <path d={path} fill="#000" />
    </svg>
  );
}
