import QRCode from 'qrcode';
import { type SafeHtml, html, trusted } from './html.js';

/**
 * A QR code as inline SVG (no `data:` URL, nothing the CSP would have to allow). The SVG comes from
 * the `qrcode` library and holds paths only; the text it encodes is never written into it as text.
 */
export async function qrCode(text: string, label: string): Promise<SafeHtml> {
  const svg = await QRCode.toString(text, { type: 'svg', margin: 1, errorCorrectionLevel: 'M' });
  const labelled = svg.replace('<svg ', '<svg role="img" aria-labelledby="qr-title" ').replace(
    /(<svg[^>]*>)/,
    `$1<title id="qr-title">${html`${label}`.value}</title>`,
  );
  return html`<div class="qr">${trusted(labelled)}</div>`;
}
