import QRCode from 'qrcode';

/** The words on a poster, already in the user's language. */
export interface PosterText {
  brand: string;
  headline: string;
  scan: string;
  codeLabel: string;
}

const WIDTH = 600;
const HEIGHT = 900;
const QR_BOX = 360;

const escapeXml = (s: string) =>
  s.replace(
    /[<>&'"]/g,
    (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', "'": '&apos;', '"': '&quot;' })[c]!,
  );

/**
 * The QR code of `text` as one SVG path of unit squares (a square per dark module), scaled into
 * a box: crisp at any size, and a few kilobytes where one <rect> per module would be many.
 */
function qrPath(text: string): { d: string; size: number } {
  const qr = QRCode.create(text, { errorCorrectionLevel: 'M' });
  const { size } = qr.modules;
  let d = '';
  for (let row = 0; row < size; row++)
    for (let col = 0; col < size; col++) if (qr.modules.get(row, col)) d += `M${col} ${row}h1v1h-1z`;
  return { d, size };
}

/**
 * The invitation poster: brand, a headline, the registration link as a QR code, and the code in
 * large letters, as an SVG picture (the phone turns it into a PNG when the user saves it). The
 * text is drawn by the viewer's fonts, so Thai, Japanese or Korean need nothing from the server.
 */
export function posterSvg(link: string, code: string, text: PosterText): string {
  const { d, size } = qrPath(link);
  // four modules of quiet space around the code, as scanners expect
  const scale = QR_BOX / (size + 8);
  const qrX = (WIDTH - QR_BOX) / 2;
  const qrY = 250;
  return `<?xml version="1.0" encoding="UTF-8"?>
<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${HEIGHT}" viewBox="0 0 ${WIDTH} ${HEIGHT}" role="img" aria-label="${escapeXml(`${text.headline} ${code}`)}">
  <defs>
    <linearGradient id="bg" x1="0" y1="0" x2="0" y2="1">
      <stop offset="0" stop-color="#0b1a33"/>
      <stop offset="1" stop-color="#10294d"/>
    </linearGradient>
  </defs>
  <rect width="${WIDTH}" height="${HEIGHT}" fill="url(#bg)"/>
  <circle cx="${WIDTH - 40}" cy="60" r="140" fill="#1db37a" fill-opacity="0.12"/>
  <text x="${WIDTH / 2}" y="110" text-anchor="middle" font-family="sans-serif" font-size="44" font-weight="700" fill="#1db37a">${escapeXml(text.brand)}</text>
  <text x="${WIDTH / 2}" y="185" text-anchor="middle" font-family="sans-serif" font-size="30" fill="#ffffff">${escapeXml(text.headline)}</text>
  <rect x="${qrX - 12}" y="${qrY - 12}" width="${QR_BOX + 24}" height="${QR_BOX + 24}" rx="18" fill="#ffffff"/>
  <path transform="translate(${qrX + 4 * scale} ${qrY + 4 * scale}) scale(${scale})" fill="#0b1a33" shape-rendering="crispEdges" d="${d}"/>
  <text x="${WIDTH / 2}" y="${qrY + QR_BOX + 70}" text-anchor="middle" font-family="sans-serif" font-size="24" fill="#c9d4e5">${escapeXml(text.scan)}</text>
  <text x="${WIDTH / 2}" y="${qrY + QR_BOX + 150}" text-anchor="middle" font-family="sans-serif" font-size="24" fill="#c9d4e5">${escapeXml(text.codeLabel)}</text>
  <text x="${WIDTH / 2}" y="${qrY + QR_BOX + 215}" text-anchor="middle" font-family="monospace" font-size="56" font-weight="700" letter-spacing="8" fill="#ffffff">${escapeXml(code)}</text>
</svg>
`;
}
