/**
 * Security headers of every page (helmet): a Content-Security-Policy with no inline script or style,
 * `frame-ancestors 'none'` and `X-Frame-Options: DENY` (no page can be framed: clickjacking),
 * `nosniff`, `Referrer-Policy: same-origin` (so that same-origin form posts keep their Origin header,
 * which the CSRF check reads), and HSTS when PUBLIC_URL is https.
 */
import helmet from 'helmet';
import type { Runtime } from '../runtime.js';

/**
 * The headers for the pages of `publicUrl`. `formAction` adds sources to `form-action` (CSP Level 3:
 * it also governs the redirects that follow a form's submission), which the OAuth consent page
 * needs for its client's redirect URI (src/web/oauth/).
 */
export function securityHeaders(
  { publicUrl, config }: Pick<Runtime, 'publicUrl' | 'config'>,
  formAction: string[] = [],
) {
  const origin = new URL(publicUrl).origin;
  const imageOrigins = config.s3?.publicUrl ? [new URL(config.s3.publicUrl).origin] : [];
  return helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'"],
        imgSrc: ["'self'", 'data:', 'blob:', ...imageOrigins],
        connectSrc: ["'self'"],
        formAction: ["'self'", ...formAction],
        frameAncestors: ["'none'"],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
      },
    },
    referrerPolicy: { policy: 'same-origin' },
    xFrameOptions: { action: 'deny' },
    strictTransportSecurity: origin.startsWith('https:'),
  });
}
