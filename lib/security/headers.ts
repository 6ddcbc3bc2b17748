/**
 * The Content-Security-Policy of every page (ASVS V14.4): scripts only with this response's
 * nonce (Next puts it on its own scripts; 'strict-dynamic' lets them load their chunks), no
 * plugins, no <base>, forms only to us (and GitHub's sign-in when it is on), and no framing.
 * Styles may be inline: React and the charts set style attributes, and styles cannot run code.
 */
export function contentSecurityPolicy(nonce: string, options: { https: boolean; githubSignIn: boolean; development: boolean }): string {
  const directives = [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${options.development ? " 'unsafe-eval'" : ""}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    `form-action 'self'${options.githubSignIn ? " https://github.com" : ""}`,
    "frame-ancestors 'none'",
  ];
  if (options.https) directives.push("upgrade-insecure-requests");
  return directives.join("; ");
}

/** HSTS for a year once a page was served over HTTPS (browsers ignore it over plain HTTP anyway). */
export const STRICT_TRANSPORT_SECURITY = "max-age=31536000; includeSubDomains";

/** A fresh nonce per response: 128 random bits. */
export function newNonce(): string {
  return Buffer.from(crypto.getRandomValues(new Uint8Array(16))).toString("base64");
}

/**
 * Headers every answer carries (ASVS V14.4): next.config.ts gives them to Next for every path, and
 * the routes answered in front of Next's router (lib/http/front-routes.ts) add them themselves.
 */
export const SECURITY_HEADERS: ReadonlyArray<readonly [name: string, value: string]> = [
  ["X-Content-Type-Options", "nosniff"],
  ["X-Frame-Options", "DENY"],
  ["Referrer-Policy", "strict-origin-when-cross-origin"],
  ["Permissions-Policy", "camera=(), microphone=(), geolocation=(), payment=()"],
  ["Cross-Origin-Opener-Policy", "same-origin"],
];
