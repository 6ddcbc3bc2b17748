/**
 * Signs in at `baseUrl` through Auth.js's credentials endpoint, the one the sign-in form ends in,
 * and gives back the cookies it sets (`Set-Cookie`, attributes included). `headers` go with both
 * requests (`x-forwarded-proto: https`, say).
 */
export async function credentialsSignIn(
  baseUrl: string,
  login: { email: string; password: string },
  headers: Record<string, string> = {},
): Promise<string[]> {
  const csrf = await fetch(`${baseUrl}/api/auth/csrf`, { headers });
  const cookies = csrf.headers
    .getSetCookie()
    .map((cookie) => cookie.split(";")[0])
    .join("; ");
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  const signIn = await fetch(`${baseUrl}/api/auth/callback/credentials`, {
    method: "POST",
    redirect: "manual",
    headers: { ...headers, "content-type": "application/x-www-form-urlencoded", cookie: cookies },
    body: new URLSearchParams({ csrfToken, email: login.email, password: login.password }),
  });
  return signIn.headers.getSetCookie();
}
