import { secureHeaders } from "hono/secure-headers";

/**
 * Security headers on every response, API and web app alike: a strict Content Security
 * Policy (the built web app has no inline script or style element: one module script and one
 * stylesheet from /assets, a data: URL favicon), no MIME sniffing, no referrer to other
 * sites, no framing (and Hono's other defaults, HSTS included).
 */
export const CONTENT_SECURITY_POLICY = {
  defaultSrc: ["'self'"],
  scriptSrc: ["'self'"],
  styleSrc: ["'self'"],
  imgSrc: ["'self'", "data:"],
  fontSrc: ["'self'"],
  connectSrc: ["'self'"],
  objectSrc: ["'none'"],
  baseUri: ["'self'"],
  formAction: ["'self'"],
  frameAncestors: ["'none'"],
};

export function securityHeaders() {
  return secureHeaders({
    contentSecurityPolicy: CONTENT_SECURITY_POLICY,
    referrerPolicy: "strict-origin-when-cross-origin",
    xFrameOptions: "DENY",
    crossOriginEmbedderPolicy: false,
  });
}
