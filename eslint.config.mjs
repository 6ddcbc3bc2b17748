// ESLint: Next's rules (core web vitals, TypeScript) and typescript-eslint's strict set. `npm run lint`.
import { defineConfig, globalIgnores } from "eslint/config";
import nextVitals from "eslint-config-next/core-web-vitals";
import nextTs from "eslint-config-next/typescript";
import tseslint from "typescript-eslint";

export default defineConfig([
  ...nextVitals,
  ...nextTs,
  ...tseslint.configs.strict,
  {
    rules: {
      // `_name` marks a value taken apart and left unused on purpose (e.g. a column not sent out).
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_", destructuredArrayIgnorePattern: "^_" },
      ],
      // A function longer than a screen does more than one thing: split it into named parts (issue 24).
      "max-lines-per-function": ["error", 80],
    },
  },
  {
    // In a test, `found!` is an assertion: a wrong lookup fails the test at once, which is its job.
    files: ["tests/**"],
    rules: { "@typescript-eslint/no-non-null-assertion": "off", "max-lines-per-function": "off" },
  },
  globalIgnores([".next/**", ".data/**", "node_modules/**", "next-env.d.ts", "bench/results.json", "coverage/**"]),
]);
