/** Next calls this once when the server starts: the app starts in the Node.js runtime only. */
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== "nodejs" || process.env.NEXT_PHASE === "phase-production-build") return;
  const { startUp } = await import("./lib/root/start-up");
  await startUp();
}
