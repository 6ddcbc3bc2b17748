import { redirect } from "next/navigation";
import { connection } from "next/server";
import { getApp } from "@/lib/current-app";
import { signedInUserId } from "@/lib/pages/member";
import { teamsOfUser } from "@/lib/teams/teams";

/** The front door: a signed-in person goes to their first team, anyone else to sign in. */
export default async function Home() {
  await connection();
  const app = await getApp();
  const userId = await signedInUserId(app);
  if (!userId) redirect("/signin");
  const [first] = await teamsOfUser(app.db, userId);
  if (!first) redirect("/signin?error=NoTeam");
  redirect(`/t/${first.team.slug}`);
}
