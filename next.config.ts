import type { NextConfig } from "next";

const config: NextConfig = {
  // PGlite loads its WASM and data files by URL; bundling it breaks `next build`.
  serverExternalPackages: ["@electric-sql/pglite", "pg", "@neondatabase/serverless", "ws"],
  // Skill folders are read from disk at run time; ship them with the server output.
  outputFileTracingIncludes: { "/**": ["./skills/**/*", "./db/migrations/**/*"] },
  poweredByHeader: false,
  // No `rewrites`: Next compiles each one again on every request to a dynamic route. The
  // installers' paths are rewritten by proxy.ts (lib/http/installer-paths.ts).
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
