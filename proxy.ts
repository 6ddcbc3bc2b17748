/** Signed-out visitors of the dashboard go to the sign-in page and come back after (§10). */
export { auth as proxy } from "@/lib/auth/proxy-auth";

export const config = { matcher: ["/t/:path*"] };
