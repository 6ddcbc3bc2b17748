import type { NextConfig } from "next";

const config: NextConfig = {
  // PGlite loads its WASM and data files by URL; bundling it breaks `next build`.
  serverExternalPackages: ["@electric-sql/pglite", "pg", "@neondatabase/serverless", "ws"],
  // Skill folders are read from disk at run time; ship them with the server output.
  outputFileTracingIncludes: { "/**": ["./skills/**/*", "./db/migrations/**/*"] },
  poweredByHeader: false,
  // The skills index lives where installers look for it; the handler lives with the API.
  rewrites: async () => [
    { source: "/.well-known/skills/:path*", destination: "/api/skills-index/:path*" },
    // An install link: `npx skills add <origin>/i/<token>` reads <url>/.well-known/skills/… with no header.
    { source: "/i/:token/.well-known/skills/:path*", destination: "/api/install-link/:token/:path*" },
  ],
  // Headers every answer carries (ASVS V14.4); each page's Content-Security-Policy comes from proxy.ts.
  headers: async () => [
    {
      source: "/:path*",
      headers: [
        { key: "X-Content-Type-Options", value: "nosniff" },
        { key: "X-Frame-Options", value: "DENY" },
        { key: "Referrer-Policy", value: "strict-origin-when-cross-origin" },
        { key: "Permissions-Policy", value: "camera=(), microphone=(), geolocation=(), payment=()" },
        { key: "Cross-Origin-Opener-Policy", value: "same-origin" },
      ],
    },
  ],
};

export default config;
