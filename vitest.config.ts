import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

const root = fileURLToPath(new URL(".", import.meta.url));

export default defineConfig({
  resolve: { alias: { "@": root } },
  test: {
    // Should a test reach the process-wide app without installing its own, it gets a throwaway database.
    env: { SKILLGATE_DATA_DIR: "memory://", SKILLGATE_DEMO: "0" },
    projects: [
      { extends: true, test: { name: "unit", include: ["tests/unit/**/*.test.ts"] } },
      {
        extends: true,
        test: {
          name: "integration",
          include: ["tests/integration/**/*.test.ts"],
          // One module graph per worker, not per file: importing the app (PGlite's WebAssembly, the AI
          // SDK, Auth.js) took seconds per file. Safe because no state lives outside the App, and each
          // test builds its own (tests/helpers/app.ts).
          isolate: false,
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
      {
        extends: true,
        test: {
          // Tests of the built server as a process of its own: start-up, several instances, shutdown,
          // installers' bursts. No page and no shared server: each starts the servers it needs.
          name: "servers",
          include: ["tests/servers/**/*.test.ts"],
          globalSetup: ["tests/servers/build.ts"],
          fileParallelism: false,
          testTimeout: 90_000,
          hookTimeout: 240_000,
        },
      },
      {
        extends: true,
        test: {
          name: "browser",
          include: ["tests/browser/**/*.test.ts"],
          globalSetup: ["tests/browser/server.ts"],
          fileParallelism: false,
          testTimeout: 90_000,
          hookTimeout: 240_000,
        },
      },
    ],
  },
});
