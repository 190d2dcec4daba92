import { lazy, Suspense } from 'react';
import './qr-code.css';

// The QR library is fetched only when a code is on screen, after the page itself has shown.
const QRCodeSVG = lazy(() => import('qrcode.react').then((m) => ({ default: m.QRCodeSVG })));

/** A QR code of `value` (a deposit address), drawn as SVG. */
export function QrCode({ value, title, size = 176 }: { value: string; title: string; size?: number }) {
  return (
    <div className="v-wallet-qr" data-testid="deposit-qr" style={{ width: size + 16, height: size + 16 }}>
      <Suspense fallback={<span className="v-spinner" />}>
        <QRCodeSVG
          value={value}
          size={size}
          marginSize={2}
          title={title}
          bgColor="#ffffff"
          fgColor="#0b1526"
        />
      </Suspense>
    </div>
  );
}
