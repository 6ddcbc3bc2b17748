import type { NextConfig } from "next";

const config: NextConfig = {
  // PGlite loads its WASM and data files by URL; bundling it breaks `next build`.
  serverExternalPackages: ["@electric-sql/pglite", "pg", "@neondatabase/serverless", "ws"],
  // Skill folders are read from disk at run time; ship them with the server output.
  outputFileTracingIncludes: { "/**": ["./skills/**/*", "./db/migrations/**/*"] },
  poweredByHeader: false,
  // The skills index lives where installers look for it; the handler lives with the API.
  rewrites: async () => [{ source: "/.well-known/skills/:path*", destination: "/api/skills-index/:path*" }],
};

export default config;
