/** Opens, migrates and seeds the database once, in the server process, before requests are served. */
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== "nodejs" || process.env.NEXT_PHASE === "phase-production-build") return;
  const { getApp } = await import("./lib/app/boot");
  await getApp();
}
